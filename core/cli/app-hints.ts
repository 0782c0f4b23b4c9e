import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { KilnError } from '../support/errors.ts'

/**
 * Whether `root` is a checkout of the framework itself (its package.json is
 * `kiln-framework` and it holds the starter app), where `kiln` finds no
 * application but the starter app is one `--root` away.
 *
 * @example
 * ```ts
 * isFrameworkCheckout('/src/kiln') // true
 * ```
 */
export function isFrameworkCheckout(root: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: string }
    return pkg.name === 'kiln-framework' && existsSync(join(root, 'app-template/config'))
  } catch {
    return false
  }
}

/**
 * What to do where no application is: create one, or, in the framework's own
 * checkout, point at the starter app.
 *
 * @example
 * ```ts
 * noAppHint('/tmp/empty', 'migrate') // 'Create one with `kiln new <dir>`, ...'
 * ```
 */
export function noAppHint(root: string, command?: string): string {
  const create = 'Create one with `kiln new <dir>`, or run kiln inside one (or with --root=<dir>).'
  if (!isFrameworkCheckout(root)) return create
  return `This is the framework's own folder: \`npx kiln --root=app-template ${command ?? '--help'}\` runs it on the starter app. ${create}`
}

/**
 * The first line of an error's message: boot failures (a syntax error in a
 * config file, a zod report) can run to many lines, and the CLI answers in one.
 * A syntax error's first line ("Transform failed with 1 error:") says nothing
 * useful, so its second line, the file, line and column, stands in for it.
 *
 * @example
 * ```ts
 * firstLine(new Error('Invalid config\n  at ...')) // 'Invalid config'
 * firstLine(new Error('Transform failed with 1 error:\n/app/routes/web.ts:3:2: ERROR: Expected ")"')) // '/app/routes/web.ts:3:2: ERROR: Expected ")"'
 * ```
 */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
  if (/^Transform failed with \d+ errors?:$/.test(lines[0] ?? '') && lines[1]) return lines[1]
  return lines[0] ?? (error as Error)?.name ?? 'Unknown error'
}

/**
 * What the CLI prints of an error: a `KilnError`'s whole message, whose
 * every line was written to be read (the variable of an invalid environment
 * and its did-you-mean, a hint), else the {@link firstLine}. In a deploy
 * script's log, this is all there is.
 *
 * @example
 * ```ts
 * errorText(new KilnError('Invalid environment (env.ts):\n  SESION_DRIVER in .env is not declared in env.ts: did you mean SESSION_DRIVER?'))
 * // 'Invalid environment (env.ts):\n  SESION_DRIVER in .env is not declared in env.ts: did you mean SESSION_DRIVER?'
 * ```
 */
export function errorText(error: unknown): string {
  if (!(error instanceof KilnError)) return firstLine(error)
  const lines = error.message.split('\n').map((line) => line.trimEnd())
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines.filter((line, i) => line !== '' || i === 0).join('\n') || firstLine(error)
}
