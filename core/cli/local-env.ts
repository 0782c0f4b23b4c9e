import { generateAppKey } from '../security/app-key.ts'

/**
 * The `.env` of a checkout for local work, made from its `.env.example`: a
 * fresh `APP_KEY`, and `APP_DEBUG=true` so errors show their cause, plus any
 * `values` (`kiln new` sets `APP_NAME`, `APP_ENV`, the database and the
 * broadcaster). The example itself keeps `APP_DEBUG=false`, so a server
 * deployed from it never shows stacks by accident.
 *
 * @example
 * ```ts
 * writeFileSync('.env', localEnv(readFileSync('.env.example', 'utf8'), { APP_NAME: 'my-app' }))
 * ```
 */
export function localEnv(example: string, values: Record<string, string> = {}): string {
  let env = setEnvVariable(example, 'APP_KEY', generateAppKey())
  env = setEnvVariable(env, 'APP_DEBUG', 'true')
  for (const [name, value] of Object.entries(values)) env = setEnvVariable(env, name, value)
  return env
}

/**
 * Sets one variable in the text of a `.env` file: its line is replaced where
 * it is, or appended. A value with spaces, quotes or `#` is double-quoted.
 *
 * @example
 * ```ts
 * setEnvVariable('APP_NAME=Kiln\n', 'APP_NAME', 'My Shop') // 'APP_NAME="My Shop"\n'
 * ```
 */
export function setEnvVariable(env: string, name: string, value: string): string {
  const text = env.endsWith('\n') || env === '' ? env : `${env}\n`
  const quoted = /^[\w.:/@+=-]*$/.test(value) ? value : JSON.stringify(value)
  const line = new RegExp(`^${name}=.*$`, 'm')
  return line.test(text) ? text.replace(line, () => `${name}=${quoted}`) : `${text}${name}=${quoted}\n`
}
