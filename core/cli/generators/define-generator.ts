import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { CommandError, defineCommand, type CommandContext, type CommandDefinition, type FlagDefinition } from '../define-command.ts'
import { loadStub, renderStub } from './stubs.ts'

/** One file a generator writes. */
export interface PlannedFile {
  /** Relative to the app root, with `/`: `app/controllers/post-controller.ts`. */
  path: string
  /** The stub's name without `.stub`: `controller`. */
  stub: string
  vars: Record<string, string>
}

/** What a generator's `plan` receives. */
export interface GeneratorInput {
  /** The name given on the command line. */
  given: string
  flags: CommandContext['flags']
  root: string
  /** True unless `--skip-test`. */
  withTest: boolean
}

/** A `make:*` command, described by the files it writes. */
export interface GeneratorDefinition {
  name: string
  description: string
  argument: { name: string; description: string }
  flags?: Record<string, FlagDefinition>
  /** Command lines for `kiln help <command>`. */
  examples?: string[]
  /** The generator can write a test beside its file: offers `--skip-test`. */
  writesTests?: boolean
  /** The files to write. Throw `CommandError` for bad input; nothing is written then. */
  plan(input: GeneratorInput): PlannedFile[]
  /** Lines printed after the files are written: how to use what was made. */
  next?(files: PlannedFile[], input: GeneratorInput): string[]
}

/**
 * Makes a `make:*` command from the files it writes: every target is checked
 * (an existing file is refused without `--force`) and every stub rendered
 * before anything is written, so a refusal leaves the app as it was.
 *
 * @example
 * ```ts
 * export const makeEventCommand = defineGenerator({
 *   name: 'make:event',
 *   description: 'Create an event class',
 *   argument: { name: 'name', description: 'The class name, e.g. OrderShipped' },
 *   plan: ({ given }) => [{ path: `app/events/${kebabCase(given)}.ts`, stub: 'event', vars: { className: given } }],
 * })
 * ```
 */
export function defineGenerator(definition: GeneratorDefinition): CommandDefinition {
  return defineCommand({
    name: definition.name,
    description: definition.description,
    // Generators only write files: they work even while the app does not boot (a half-written file, a missing key).
    needsApp: false,
    args: [{ ...definition.argument, required: true }],
    examples: definition.examples,
    flags: {
      ...definition.flags,
      ...(definition.writesTests ? { 'skip-test': { type: 'boolean', description: 'Do not write a test' } } : {}),
      force: { type: 'boolean', description: 'Overwrite existing files' },
    },
    run({ root, args, flags, info }) {
      if (!existsSync(join(root, 'config'))) throw new CommandError(`No Kiln application at ${root} (no config/ folder).`)
      const input: GeneratorInput = { given: args[0] ?? '', flags, root, withTest: !flags['skip-test'] }
      const files = definition.plan(input)
      for (const file of files) {
        if (existsSync(join(root, file.path)) && !flags.force) throw new CommandError(`${file.path} already exists (use --force to overwrite).`)
      }
      const rendered = files.map((file) => ({ file, text: renderStub(loadStub(root, file.stub), file.vars) }))
      for (const { file, text } of rendered) {
        const target = join(root, file.path)
        mkdirSync(dirname(target), { recursive: true })
        writeFileSync(target, text)
        info(`Created ${file.path}`)
      }
      for (const line of definition.next?.(files, input) ?? []) info(line)
      return 0
    },
  })
}

/**
 * The import specifier from one app file to another, both relative to the
 * app root: `importPath('tests/models/post.test.ts', 'app/models/post.ts')` is
 * `'../../app/models/post.ts'`.
 *
 * @example
 * ```ts
 * importPath('app/listeners/send-email.ts', 'app/events/order-shipped.ts') // '../events/order-shipped.ts'
 * ```
 */
export function importPath(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to)
  return path.startsWith('.') ? path : `./${path}`
}

/**
 * The path from a file's folder back to the app root, with a trailing `/`:
 * `'../../'` for `tests/models/post.test.ts`.
 *
 * @example
 * ```ts
 * rootFrom('tests/controllers/admin/post-controller.test.ts') // '../../../'
 * ```
 */
export function rootFrom(file: string): string {
  const depth = file.split('/').length - 1
  return depth === 0 ? './' : '../'.repeat(depth)
}

/**
 * `app/<folder>/<sub>/<file>.ts`, joined with `/`.
 *
 * @example
 * ```ts
 * appFile('app/controllers', ['admin'], 'post-controller', '.ts') // 'app/controllers/admin/post-controller.ts'
 * ```
 */
export function appFile(folder: string, folders: string[], fileName: string, extension: string): string {
  return [folder, ...folders, `${fileName}${extension}`].join('/')
}
