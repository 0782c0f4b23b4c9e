import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError } from '../define-command.ts'
import { kilnPackageRoot } from '../../support/package-root.ts'

/**
 * Kiln's own stubs, which `vendor:publish --tag=stubs` copies into an app's `stubs/` folder.
 *
 * @example
 * ```ts
 * publisher.publishes('stubs', [{ from: STUBS_DIR, to: 'stubs' }])
 * ```
 */
export const STUBS_DIR = join(kilnPackageRoot(), 'stubs/')

/** A stub's text and where it came from, for error messages. */
export interface Stub {
  text: string
  /** `stubs/controller.stub` (the app's copy) or `kiln-framework/stubs/controller.stub`. */
  source: string
}

/**
 * Loads `<name>.stub`: the app's own `stubs/<name>.stub` when it has one,
 * else Kiln's.
 *
 * @example
 * ```ts
 * const stub = loadStub('/srv/app', 'controller') // stubs/controller.stub if the app published and edited it
 * ```
 */
export function loadStub(root: string, name: string): Stub {
  const own = join(root, 'stubs', `${name}.stub`)
  if (existsSync(own)) return { text: readFileSync(own, 'utf8'), source: `stubs/${name}.stub` }
  return { text: readFileSync(join(STUBS_DIR, `${name}.stub`), 'utf8'), source: `kiln-framework/stubs/${name}.stub` }
}

/**
 * Fills a stub's `{{ placeholder }}`s. A placeholder the generator does not
 * know (a typo in an edited app stub) is an error rather than text left in
 * the generated file.
 *
 * @example
 * ```ts
 * renderStub({ text: 'export class {{ className }} {}', source: 'x' }, { className: 'Post' }) // 'export class Post {}'
 * ```
 */
export function renderStub(stub: Stub, vars: Record<string, string>): string {
  return stub.text.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (_match, key: string) => {
    if (!Object.hasOwn(vars, key)) {
      throw new CommandError(`${stub.source} uses {{ ${key} }}, which is not one of its placeholders: ${Object.keys(vars).sort().join(', ')}.`)
    }
    return vars[key]!
  })
}
