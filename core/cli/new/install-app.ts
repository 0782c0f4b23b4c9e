import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError } from '../define-command.ts'
import { FRAMEWORK_PACKAGE } from './app-package.ts'

const WINDOWS = process.platform === 'win32'

/**
 * Runs a program in `cwd` with the terminal's output and no input (so npm
 * never waits on a question), and resolves to its exit code. A program that
 * cannot start at all (`npm` not on PATH) is a `CommandError`.
 *
 * @example
 * ```ts
 * const code = await run('npm', ['install'], '/srv/my-app')
 * ```
 */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    // npm is npm.cmd on Windows, which Node starts only through a shell.
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'], shell: WINDOWS && command === 'npm' })
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CommandError(
          error.code === 'ENOENT'
            ? `${command} was not found on PATH: install Node.js with npm, or pass --no-install.`
            : `${command} could not start: ${error.message}`,
        ),
      ),
    )
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/**
 * `kiln new --install`: `npm install` in the new app, then its own
 * `kiln migrate` and `kiln db:seed`, each in a process of its own rooted at
 * the app (a `KILN_ROOT` from the caller's shell would point them elsewhere).
 * The first step that fails is a one-line `CommandError` naming it and
 * what to run by hand once it is fixed.
 *
 * @example
 * ```ts
 * await installApp('/srv/my-app', 'my-app', (line) => console.log(line))
 * ```
 */
export async function installApp(root: string, shown: string, info: (line: string) => void): Promise<void> {
  info('\nInstalling dependencies (npm install)...')
  const installed = await run('npm', ['install', '--no-fund', '--no-audit'], root, npmEnv())
  if (installed !== 0)
    throw new CommandError(
      `npm install failed (exit code ${installed}) in ${shown}: the app is created; fix the error above, then run npm install, npx kiln migrate and npx kiln db:seed there.`,
    )

  const bin = join(root, 'node_modules', FRAMEWORK_PACKAGE, 'bin', 'kiln.js')
  if (!existsSync(bin)) throw new CommandError(`npm install did not install ${FRAMEWORK_PACKAGE} in ${shown}: run npm install there again.`)
  const env = { ...process.env, KILN_ROOT: root }
  for (const step of [['migrate'], ['db:seed']]) {
    info(`\nRunning kiln ${step.join(' ')}...`)
    const code = await run(process.execPath, [bin, ...step], root, env)
    if (code !== 0)
      throw new CommandError(
        `kiln ${step.join(' ')} failed (exit code ${code}) in ${shown}: fix the error above, then run npx kiln migrate and npx kiln db:seed there.`,
      )
  }
}

/**
 * The environment for npm in the new app: the caller's, without what npm
 * itself sets for the scripts it runs (`npx kiln new` runs under
 * `npm_config_local_prefix=<clone>`, `npm_package_*` of the clone), so
 * nothing points the install back at the clone.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const own = /^npm_(?:package_|lifecycle_|command$|config_local_prefix$)/
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !own.test(name)))
}
