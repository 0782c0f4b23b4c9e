import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Application } from '../application/application.ts'
import { createApp, type CreateAppOptions } from '../application/create-app.ts'

/** Options for {@link createTestApp}: `createApp`'s, with `root` optional. */
export type TestAppOptions = Omit<CreateAppOptions, 'root'> & { root?: string }

/**
 * An application for a test: `APP_ENV=test` (throwaway key, silent logs),
 * `APP_DEBUG=false` whatever the app's local `.env` says (`npm start` and
 * `kiln new` write one with debug on, and a test must not depend on it),
 * sessions in memory, and an empty temporary root unless one is given.
 * `env` overrides each of these.
 *
 * @example
 * ```ts
 * const app = await createTestApp({ root: fileURLToPath(new URL('../app-template', import.meta.url)) })
 * t.teardown(() => app.close())
 * ```
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<Application> {
  const root = options.root ?? emptyRoot()
  return createApp({
    ...options,
    root,
    env: { APP_ENV: 'test', APP_DEBUG: 'false', SESSION_DRIVER: 'memory', ...options.env },
    config: { ...options.config, app: { env: 'test', ...(options.config?.app as object | undefined) } },
  })
}

function emptyRoot(): string {
  const base = join(tmpdir(), 'kiln-test-apps')
  mkdirSync(base, { recursive: true })
  return mkdtempSync(join(base, 'app-'))
}
