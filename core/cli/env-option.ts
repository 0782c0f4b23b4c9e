import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { CommandError } from './define-command.ts'

/**
 * The variables `kiln --env=<name>` adds for the application, as artisan's
 * `--env`: `.env.<name>` read over `.env` (the real environment still wins
 * over both files), and `APP_ENV=<name>` whatever the files say. The file is
 * optional: `--env=staging` with no `.env.staging` only sets `APP_ENV`.
 *
 * @example
 * ```ts
 * const overrides = envOption('/srv/app', 'staging', {}) // { ...values of .env.staging, APP_ENV: 'staging' }
 * ```
 */
export function envOption(
  root: string,
  name: string,
  given: Record<string, string | undefined> | undefined,
  processEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string | undefined> {
  // A name becomes part of a file name: no paths, no dots at the start (`--env=../secrets`).
  if (!/^[A-Za-z0-9][\w-]*$/.test(name)) throw new CommandError(`--env takes an environment name such as staging or testing, got "${name}".`)
  const file = join(root, `.env.${name}`)
  const fromFile = existsSync(file) ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string>) : {}
  // Values of .env.<name> override .env, but not variables really set in the process (the same rule as .env's).
  const layered: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(fromFile)) if (processEnv[key] === undefined) layered[key] = value
  return { ...layered, ...given, APP_ENV: name }
}
