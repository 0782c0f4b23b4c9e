import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createApp, generateAppKey, KilnError } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin } from '../cli/cli-harness.ts'

const STARTER = fileURLToPath(new URL('../../../app-template/', import.meta.url))
const APP_KEY = generateAppKey()
/** What a deploy sets besides the environment: the key, the address, nothing that needs a server. */
const deployed = {
  APP_KEY,
  APP_URL: 'https://shop.example.com',
  APP_DEBUG: 'false',
  SESSION_DRIVER: 'memory',
  BROADCAST_CONNECTION: 'log',
  LOG_LEVEL: 'silent',
}

test('NODE_ENV=production without APP_ENV boots the starter as a production app', async (t) => {
  // APP_ENV '' is unset: the starter's env.ts would default it to development.
  const app = await createApp({ root: STARTER, env: { ...deployed, NODE_ENV: 'production', APP_ENV: '' } })
  t.teardown(() => app.close())
  t.is(app.environment, 'production')
  t.false(app.debug)
})

test('NODE_ENV=development without APP_ENV is a development app; NODE_ENV=test is left to APP_ENV and the app', async (t) => {
  const root = tempApp()
  const development = await createApp({ root, env: { ...deployed, NODE_ENV: 'development', APP_ENV: '' } })
  t.teardown(() => development.close())
  t.is(development.environment, 'development')
  // No env.ts here: the kernel's own default, production, applies.
  const test = await createApp({ root, env: { ...deployed, NODE_ENV: 'test', APP_ENV: '' } })
  t.teardown(() => test.close())
  t.is(test.environment, 'production')
})

test('APP_ENV and NODE_ENV that disagree about production stop the boot, naming both and what to set', async (t) => {
  for (const [appEnv, nodeEnv] of [
    ['development', 'production'],
    ['local', 'production'],
    ['production', 'development'],
  ] as const) {
    const error = await t.throwsAsync(createApp({ root: STARTER, env: { ...deployed, APP_ENV: appEnv, NODE_ENV: nodeEnv } }), { instanceOf: KilnError })
    t.is(error.code, 'E_APP_ENV_CONFLICT')
    t.regex(error.message, new RegExp(`environment is ${appEnv === 'local' ? 'development' : appEnv} .*NODE_ENV is ${nodeEnv}`))
    t.regex(error.message, new RegExp(`Set APP_ENV=${nodeEnv}`))
  }
})

test('NODE_ENV=test (as test runners set it) never conflicts, and APP_ENV=test never does', async (t) => {
  const production = await createApp({ root: STARTER, env: { ...deployed, APP_ENV: 'production', NODE_ENV: 'test' } })
  t.teardown(() => production.close())
  t.is(production.environment, 'production')
  const testing = await createApp({ root: STARTER, env: { ...deployed, APP_ENV: 'test', NODE_ENV: 'production' } })
  t.teardown(() => testing.close())
  t.is(testing.environment, 'test')
})

test('the real CLI: NODE_ENV=production alone makes migrate refuse without --force, as in production', async (t) => {
  const root = tempApp({
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'config/database.ts': "export default { default: 'sqlite', connections: { sqlite: { driver: 'sqlite', filename: 'database/app.sqlite' } } }\n",
  })
  const refused = await bin(['migrate'], root, { ...deployed, NODE_ENV: 'production', APP_ENV: '' })
  t.is(refused.code, 1, refused.stderr)
  t.regex(refused.stderr, /Refusing to run "migrate" in production/)
  const conflict = await bin(['migrate', '--force'], root, { ...deployed, NODE_ENV: 'production', APP_ENV: 'development' })
  t.is(conflict.code, 1)
  t.regex(conflict.stderr, /did not boot: The app's environment is development .*NODE_ENV is production.*Set APP_ENV=production/)
})

test('a production boot without APP_URL stops with E_APP_URL naming APP_URL and what to set', async (t) => {
  const { APP_URL: _unset, ...withoutUrl } = deployed
  const error = await t.throwsAsync(createApp({ root: STARTER, env: { ...withoutUrl, APP_ENV: 'production', APP_URL: '' } }), { instanceOf: KilnError })
  t.is(error.code, 'E_APP_URL')
  t.regex(error.message, /^APP_URL is not set/)
  t.regex(error.message, /http:\/\/127\.0\.0\.1:3000/)
  t.regex(error.message, /Set APP_URL to the address .*APP_URL=https:\/\/shop\.example\.com/)
  // The kernel's own default (an app without env.ts) is refused the same way.
  await t.throwsAsync(createApp({ root: tempApp(), env: { ...withoutUrl, APP_ENV: 'production', APP_URL: '' } }), { message: /^APP_URL is not set/ })
  // Development and tests keep the local default.
  const development = await createApp({ root: STARTER, env: { ...withoutUrl, APP_ENV: 'development', APP_URL: '' } })
  t.teardown(() => development.close())
  t.is(development.config.get('app.url'), 'http://127.0.0.1:3000')
})

test('APP_URL set on purpose is taken as it is, and so is a public url written in config/app.ts', async (t) => {
  const set = await createApp({ root: STARTER, env: { ...deployed, APP_ENV: 'production', APP_URL: 'http://127.0.0.1:8080' } })
  t.teardown(() => set.close())
  t.is(set.config.get('app.url'), 'http://127.0.0.1:8080')
  const root = tempApp({ 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({ url: 'https://shop.example.com' })\n" })
  const written = await createApp({ root, env: { ...deployed, APP_ENV: 'production', APP_URL: '' } })
  t.teardown(() => written.close())
  t.is(written.config.get('app.url'), 'https://shop.example.com')
})

test('the real CLI: a production command without APP_URL says so in its one error', async (t) => {
  const root = tempApp({ 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n" })
  const result = await bin(['route:list'], root, { APP_KEY, APP_ENV: 'production' })
  t.is(result.code, 1)
  t.regex(result.stderr, /did not boot: APP_URL is not set.*Set APP_URL to/)
})
