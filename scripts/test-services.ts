// What the second group of `npm test` needs (scripts/run-tests.ts): PostgreSQL, Redis and Chromium, each checked
// where the tests will look for it.
import { accessSync, constants } from 'node:fs'
import { connect } from 'node:net'

/** Whether something accepts TCP connections at the URL's host and port, within two seconds. */
function answers(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || defaultPort), timeout: 2000 })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => done(true))
    socket.once('timeout', () => done(false))
    socket.once('error', () => done(false))
  })
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The services the tests beyond the quick group need that do not answer, each as a sentence saying how to fix it;
 * empty when all answer. Reads `DATABASE_URL`, `REDIS_URL` and `CHROMIUM_PATH` as the tests do.
 *
 * @example
 * ```ts
 * for (const line of await missingServices()) console.error(line)
 * ```
 */
export async function missingServices(): Promise<string[]> {
  const database = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  const missing: string[] = []
  if (!(await answers(database, 5432))) missing.push(`PostgreSQL does not answer at ${new URL(database).host} (start it, or set DATABASE_URL)`)
  if (!(await answers(redis, 6379))) missing.push(`Redis does not answer at ${new URL(redis).host} (start it, or set REDIS_URL)`)
  if (!executable(chromium)) missing.push(`Chromium is not at ${chromium} (install it, or set CHROMIUM_PATH)`)
  return missing
}
