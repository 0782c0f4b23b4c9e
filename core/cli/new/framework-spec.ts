import { existsSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, parse, relative, resolve } from 'node:path'
import { CommandError } from '../define-command.ts'
import { FRAMEWORK_PACKAGE } from './app-package.ts'

/**
 * How a new app depends on Kiln: the spec written in its `package.json`, and
 * whether that is a clone's TypeScript sources (its tests and type-check then
 * resolve `kiln-framework` to them through the `kiln-source` condition).
 *
 * @example
 * ```ts
 * const { spec, linkedToSources, folder } = frameworkDependency({ cwd, target, kilnRoot })
 * ```
 */
export interface FrameworkDependency {
  /** `file:../kiln`, `file:../kiln-framework-0.1.0.tgz`, `^0.1.0`... */
  spec: string
  linkedToSources: boolean
  /** The framework's folder on this machine when the spec names one (a clone or an unpacked package). */
  folder?: string
}

// A spec that names something on disk rather than a version, a tag or a URL.
const PATH_LIKE = /^(?:file:|\.{1,2}(?:[\\/]|$)|[\\/]|~[\\/]|[A-Za-z]:[\\/])|\.(?:tgz|tar\.gz|tar)$/

/**
 * The framework's spec for a new app in `target`. `flag` is `--framework`:
 * a version range, a dist-tag or a URL is written as it is; a path (a
 * tarball made by `npm pack`, or a folder) is resolved from `cwd`, must
 * exist, and is written as a `file:` path from the app. Without the flag,
 * a clone (`core/index.ts` beside its `package.json`) is linked by path and
 * an installed Kiln gives `^<its version>`, as `npm create` starters do: a
 * path into npx's cache or a tools folder would not outlive it.
 *
 * @example
 * ```ts
 * frameworkDependency({ flag: './kiln-framework-0.1.0.tgz', cwd: '/work', target: '/work/my-app', kilnRoot })
 * // { spec: 'file:../kiln-framework-0.1.0.tgz', linkedToSources: false }
 * ```
 */
export function frameworkDependency(options: { flag?: string; cwd: string; target: string; kilnRoot: string }): FrameworkDependency {
  const { flag, cwd, target, kilnRoot } = options
  if (flag === undefined) {
    if (isClone(kilnRoot)) return { spec: `file:${pathFromApp(target, kilnRoot)}`, linkedToSources: true, folder: kilnRoot }
    const version = (JSON.parse(readFileSync(join(kilnRoot, 'package.json'), 'utf8')) as { version?: string }).version
    if (version) return { spec: `^${version}`, linkedToSources: false }
    return { spec: `file:${pathFromApp(target, kilnRoot)}`, linkedToSources: false, folder: kilnRoot }
  }
  const given = flag.trim()
  if (given === '') throw new CommandError('--framework needs a value: a version range (^0.1.0), a tarball (./kiln-framework-0.1.0.tgz) or a folder.')
  if (!PATH_LIKE.test(given)) return { spec: given, linkedToSources: false }

  const raw = given.replace(/^file:/, '').replace(/^~(?=[\\/])/, process.env.HOME ?? '~')
  const path = resolve(cwd, raw)
  if (!existsSync(path)) throw new CommandError(`--framework: nothing at ${path}.`)
  if (statSync(path).isDirectory()) {
    const manifest = join(path, 'package.json')
    const name = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name : undefined
    if (name !== FRAMEWORK_PACKAGE) throw new CommandError(`--framework: ${path} is not Kiln (its package.json does not name ${FRAMEWORK_PACKAGE}).`)
    return { spec: `file:${pathFromApp(target, path)}`, linkedToSources: isClone(path), folder: path }
  }
  if (!/\.(?:tgz|tar\.gz|tar)$/.test(path)) throw new CommandError(`--framework: ${path} is neither a folder nor a tarball (.tgz).`)
  return { spec: `file:${pathFromApp(target, path)}`, linkedToSources: false }
}

/** A clone runs from its TypeScript sources; an installed package carries its build only. */
function isClone(folder: string): boolean {
  return existsSync(join(folder, 'core/index.ts'))
}

/**
 * The path from the app to `path`: relative when they share a folder below
 * the filesystem root (`../kiln`), so both can move together; absolute
 * otherwise (`/home/me/kiln` for an app in /tmp).
 */
function pathFromApp(target: string, path: string): string {
  const rel = relative(target, path)
  const climbs = rel.split(/[\\/]/).filter((part) => part === '..').length
  const depth = target.slice(parse(target).root.length).split(/[\\/]/).filter(Boolean).length
  const chosen = rel === '' || isAbsolute(rel) || climbs >= depth ? path : rel
  return chosen.split('\\').join('/').replace(/\/$/, '')
}
