import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// Issue 27 item 2: an app's env.ts declares its variables with zod; the boot checks them before any config file.

const ENV_TS = `import { defineEnv } from 'kiln-framework'
import { z } from 'zod'
export default defineEnv({
  PORT: z.coerce.number().int().min(1).default(3000),
  SESSION_DRIVER: z.enum(['memory', 'fs', 'redis']).default('fs'),
  FEATURE_X: z.stringbool().default(false),
  API_TOKEN: z.string().min(8),
})
`
const CONFIG = `import { defineConfig } from 'kiln-framework'
export default defineConfig(({ env }) => ({ port: env.get('PORT'), driver: env.get('SESSION_DRIVER'), x: env.get('FEATURE_X') }))
`

test('declared variables come validated and typed: a number is a number, a boolean a boolean, defaults filled', async (t) => {
  const root = tempApp({ 'env.ts': ENV_TS, 'config/probe.ts': CONFIG, '.env': 'PORT=8080\nFEATURE_X=yes\nAPI_TOKEN=abcdefghij\n' })
  const app = await createApp({ root, env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  t.deepEqual(app.config.get('probe'), { port: 8080, driver: 'fs', x: true })
  t.is(app.env.number('PORT', 1), 8080)
  t.true(app.env.unchecked.boolean('FEATURE_X'))
})

test('a mistyped value stops the boot, naming the variable and not its value', async (t) => {
  const root = tempApp({ 'env.ts': ENV_TS, '.env': 'PORT=eighty\nAPI_TOKEN=abcdefghij\n' })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /Invalid environment \(env\.ts\):\n {2}PORT: /)
  t.notRegex(error!.message, /eighty/)
})

test('a value outside an enum, and a required variable not set, are both reported', async (t) => {
  const root = tempApp({ 'env.ts': ENV_TS })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test', SESSION_DRIVER: 'memcached' } }))
  t.regex(error!.message, /SESSION_DRIVER: /)
  t.regex(error!.message, /API_TOKEN: required, but not set/)
})

test('a name in .env that misspells a declared one stops the boot with the name it meant', async (t) => {
  const root = tempApp({ 'env.ts': ENV_TS, '.env': 'SESION_DRIVER=redis\nAPI_TOKEN=abcdefghij\n' })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /SESION_DRIVER in \.env is not declared in env\.ts: did you mean SESSION_DRIVER\?/)
})

test('variables the app does not declare are left alone, in .env and in the process environment', async (t) => {
  const root = tempApp({ 'env.ts': ENV_TS, '.env': 'API_TOKEN=abcdefghij\nOTHER_THING=1\n' })
  const app = await createApp({ root, env: { APP_ENV: 'test', SOMETHING_ELSE: 'x' } })
  t.teardown(() => app.close())
  t.is(app.env.unchecked.get('OTHER_THING'), '1')
  t.is(app.env.unchecked.get('SOMETHING_ELSE'), 'x')
})

test("an env.ts without defineEnv's export is a clear error", async (t) => {
  const root = tempApp({ 'env.ts': 'export default { PORT: 1 }' })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.is(error!.message, 'env.ts has no default export made by defineEnv({...}).')
})
