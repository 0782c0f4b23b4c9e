import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// Issue 27 item 2: an unknown key, or a config file whose name misspells one Kiln reads, stops the boot.

test('a misspelled key in config/session.ts stops the boot and names the key it meant', async (t) => {
  const root = tempApp({ 'config/session.ts': "export default { drvier: 'redis', lifetime: 1 }" })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.is(error?.message, 'Invalid configuration in config/session.ts: drvier: unknown key, did you mean "driver"?')
})

test('a misspelled nested key is found at its depth', async (t) => {
  const root = tempApp({ 'config/http.ts': 'export default { compression: { enabeld: false } }' })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /config\/http\.ts: compression\.enabeld: unknown key, did you mean "enabled"\?/)
})

test("a plugin's config file is strict too", async (t) => {
  const root = tempApp({
    'config/app.ts': "import { tok } from 'kiln-framework/tok'\nexport default { plugins: [tok()] }",
    'config/tok.ts': 'export default { experation: 60 }',
  })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /config\/tok\.ts: experation: unknown key, did you mean "expiration"\?/)
})

test('an unknown key far from any lists the keys the file has', async (t) => {
  const root = tempApp({ 'config/cors.ts': 'export default { zzz: 1 }' })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /config\/cors\.ts: zzz: unknown key \(this file has: paths, allowed_origins/)
})

test('config/sesion.ts stops the boot with the file it meant', async (t) => {
  const root = tempApp({ 'config/sesion.ts': "export default { driver: 'memory' }" })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /config\/sesion\.ts is not read by Kiln or any plugin: did you mean config\/session\.ts\?/)
})

test("a near miss of a plugin's file is caught even when the plugin is not enabled", async (t) => {
  const root = tempApp({ 'config/mial.ts': 'export default {}' })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' } }))
  t.regex(error!.message, /did you mean config\/mail\.ts\?/)
})

test("an app's own config file with a name of its own boots and is read", async (t) => {
  const root = tempApp({ 'config/greeting.ts': "export default { text: 'hello' }", 'config/session.ts': "export default { driver: 'memory', lifetime: 5 }" })
  const app = await createApp({ root, env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  t.is(app.config.get('greeting.text'), 'hello')
  t.is(app.config.get('session.lifetime'), 5)
})
