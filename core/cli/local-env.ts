import { generateAppKey } from '../security/app-key.ts'

/**
 * The `.env` of a checkout for local work, made from its `.env.example`: a
 * fresh `APP_KEY`, and `APP_DEBUG=true` so errors show their cause. The
 * example itself keeps `APP_DEBUG=false`, so a server deployed from it never
 * shows stacks by accident.
 *
 * @example
 * ```ts
 * writeFileSync('.env', localEnv(readFileSync('.env.example', 'utf8')))
 * ```
 */
export function localEnv(example: string): string {
  let env = example.endsWith('\n') || example === '' ? example : `${example}\n`
  env = setVariable(env, 'APP_KEY', generateAppKey())
  return setVariable(env, 'APP_DEBUG', 'true')
}

function setVariable(env: string, name: string, value: string): string {
  const line = new RegExp(`^${name}=.*$`, 'm')
  return line.test(env) ? env.replace(line, `${name}=${value}`) : `${env}${name}=${value}\n`
}
