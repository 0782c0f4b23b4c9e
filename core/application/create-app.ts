import { resolve } from 'node:path'
import { checkEnvironmentsAgree, requireAppUrl } from '../config/app-environment.ts'
import { ConfigRepository } from '../config/config-repository.ts'
import { Env } from '../config/env.ts'
import type { DevPages } from '../dev/dev-pages.ts'
import { loadEnvDefinition, validateEnv } from '../config/env-schema.ts'
import { loadConfigFiles } from '../config/load-config-files.ts'
import { generateAppKey, missingAppKey, parseAppKey } from '../security/app-key.ts'
import { appConfigSchema } from './app-config.ts'
import { Application } from './application.ts'
import type { Plugin } from './define-plugin.ts'
import { kernelProviders } from './kernel-providers.ts'

/** Options for {@link createApp}. */
export interface CreateAppOptions {
  /** The application folder, holding `config/`, `routes/`, `resources/`. */
  root: string
  /** Environment variables that win over `.env` and `process.env` for this app only. */
  env?: Record<string, string | undefined>
  /** Config values deep-merged over the files, keyed by file name: `{ session: { driver: 'memory' } }`. */
  config?: Record<string, unknown>
  /** Plugins added after those listed in `config/app.ts`. */
  plugins?: Plugin[]
  /** The dev pages of `kiln dev`, which passes them: plugins add theirs (`app.dev`). */
  dev?: DevPages
}

/**
 * Creates and boots an application: loads `.env` and every `config/*.ts`,
 * validates them, registers then boots the kernel and every plugin, and loads
 * the route files.
 *
 * @example
 * ```ts
 * import { createApp } from 'kiln-framework'
 *
 * const app = await createApp({ root: process.cwd() })
 * const server = await app.service('server').listen({ port: 3000 })
 * ```
 */
export async function createApp(options: CreateAppOptions): Promise<Application> {
  const root = resolve(options.root)
  const env = Env.load(root, options.env)
  // The app's env.ts, if any, is checked before a config file reads a variable.
  const envDefinition = await loadEnvDefinition(root)
  if (envDefinition) validateEnv(env, envDefinition)
  const raw = await loadConfigFiles({ root, env, overrides: options.config })
  raw.app = { ...appDefaultsFromEnv(env), ...(raw.app as Record<string, unknown> | undefined) }
  const config = new ConfigRepository(raw)
  const appConfig = config.define('app', appConfigSchema)

  const throwawayKey = !appConfig.key
  if (throwawayKey) {
    if (appConfig.env !== 'test') throw missingAppKey()
    // Tests get a throwaway key so that a fresh clone's test run needs no setup.
    config.set('app.key', generateAppKey())
  }
  parseAppKey(config.get<string>('app.key'))
  checkEnvironmentsAgree(appConfig.env, env.raw().NODE_ENV)
  requireAppUrl({ env: appConfig.env, url: appConfig.url, appUrlSet: env.unchecked.isSet('APP_URL') })

  const plugins = uniqueByName([...appConfig.plugins, ...(options.plugins ?? [])])
  const app = new Application(root, env, config, plugins, options.dev)
  try {
    await app.register(kernelProviders)
    // Another process would make up another key, and refuse this one's cookies and signatures.
    if (throwawayKey)
      app
        .service('processState')
        .declare({ what: 'APP_KEY, made up for this process (APP_ENV=test)', scope: 'process', setting: 'set APP_KEY (`kiln key:generate`)' })
    await app.boot(kernelProviders)
  } catch (error) {
    await app.close().catch(() => {})
    throw error
  }
  return app
}

/** What `config/app.ts` means when it leaves a key out: the conventional `APP_*` variables. */
function appDefaultsFromEnv(env: Env): Record<string, unknown> {
  const defaults: Record<string, unknown> = {
    name: env.unchecked.get('APP_NAME', 'Kiln'),
    env: env.unchecked.get('APP_ENV', 'production'),
    debug: env.unchecked.boolean('APP_DEBUG', false),
    key: env.unchecked.get('APP_KEY'),
    // Comma-separated, as Laravel reads it: keys that still decrypt and verify during a rotation.
    previous_keys: (env.unchecked.get('APP_PREVIOUS_KEYS') ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    url: env.unchecked.get('APP_URL', 'http://localhost:3000'),
    base_path: env.unchecked.get('APP_BASE_PATH', ''),
  }
  return defaults
}

function uniqueByName(plugins: Plugin[]): Plugin[] {
  const seen = new Map<string, Plugin>()
  for (const plugin of plugins) seen.set(plugin.name, plugin)
  return [...seen.values()]
}
