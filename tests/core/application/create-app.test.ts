import test from 'ava'
import { z } from 'zod'
import { ConfigError, createApp, defineCommand, definePlugin, KilnError, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    'second-service': { ok: boolean }
  }
}

test('.env is loaded, real environment variables win, and per-app overrides win over both', async (t) => {
  const root = tempApp({
    '.env': 'APP_ENV=test\nAPP_NAME=FromFile\nGREETING=file\nSHARED=file\n',
    'config/greeting.ts': `import { defineConfig } from 'kiln-framework'\nexport default defineConfig(({ env }) => ({ word: env.get('GREETING'), shared: env.get('SHARED') }))\n`,
  })
  process.env.KILN_TEST_SHARED_ONLY = 'process'
  const app = await createApp({ root, env: { SHARED: 'override' } })
  t.teardown(() => app.close())
  t.is(app.config.get('app.name'), 'FromFile')
  t.is(app.config.get('greeting.word'), 'file')
  t.is(app.config.get('greeting.shared'), 'override')
  t.is(app.env.unchecked.get('KILN_TEST_SHARED_ONLY'), 'process')
})

test('an invalid config file stops boot naming the file, the key and the reason', async (t) => {
  const schema = z.object({ retries: z.number().int().min(0) })
  const plugin = definePlugin({ name: 'retry', config: { file: 'retry', schema } })
  const root = tempApp({ 'config/retry.ts': `export default { retries: 'many' }\n` })
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test' }, plugins: [plugin] }), { instanceOf: ConfigError })
  t.is(error.file, 'config/retry.ts')
  t.is(error.key, 'retries')
  t.regex(error.message, /config\/retry\.ts: retries: .*number/i)
})

test('a config file that fails to load or has no default export is reported by name', async (t) => {
  const noDefault = tempApp({ 'config/mail.ts': `export const x = 1\n` })
  await t.throwsAsync(createApp({ root: noDefault, env: { APP_ENV: 'test' } }), { message: /config\/mail\.ts has no default export/ })
  const broken = tempApp({ 'config/mail.ts': `throw new Error('kaboom')\n` })
  await t.throwsAsync(createApp({ root: broken, env: { APP_ENV: 'test' } }), { message: /Could not load config\/mail\.ts: kaboom/ })
})

test('APP_KEY is required outside tests, and the error names kiln key:generate', async (t) => {
  const error = await t.throwsAsync(createApp({ root: tempApp(), env: { APP_ENV: 'production', APP_KEY: '' } }), { instanceOf: KilnError })
  t.regex(error.message, /APP_KEY/)
  t.regex(error.message, /kiln key:generate/)
  await t.throwsAsync(createApp({ root: tempApp(), env: { APP_ENV: 'production', APP_KEY: 'short' } }), { message: /too short/ })
})

test('plugins register before any boots; a plugin adds a route, a middleware alias, a command and a view helper without touching core', async (t) => {
  const order: string[] = []
  const first = definePlugin({
    name: 'first',
    register: () => void order.push('first:register'),
    boot(app: Application) {
      order.push('first:boot')
      t.true(app.hasService('second-service'), 'boot sees what a later plugin registered')
    },
  })
  const second = definePlugin({
    name: 'second',
    register(app: Application) {
      order.push('second:register')
      app.instance('second-service', { ok: true })
    },
    boot(app: Application) {
      order.push('second:boot')
      app.middleware.alias('shout', async (_ctx, next, params) => {
        const response = await next()
        response.headers.set('x-shout', params.join('+') || 'yes')
        return response
      })
      app.router.get('/plugin', () => ({ from: 'plugin' })).middleware(['shout:a,b'])
      app.commands.register(defineCommand({ name: 'plugin:hello', description: 'Says hello', run: ({ info }) => info('hello') }))
      app.views.helper('loud', (text: string) => `${String(text).toUpperCase()}!`)
    },
  })
  const root = tempApp({
    'config/app.ts': `import { defineConfig } from 'kiln-framework'\nexport default defineConfig({ env: 'test', plugins: [] })\n`,
    'resources/views/greet.hbs': '<p>{{loud name}}</p>',
  })
  const app = await createApp({ root, plugins: [first, second] })
  t.teardown(() => app.close())
  t.deepEqual(order, ['first:register', 'second:register', 'first:boot', 'second:boot'])
  const res = await app.request('/plugin')
  t.deepEqual(await res.json(), { from: 'plugin' })
  t.is(res.headers.get('x-shout'), 'a+b')
  t.truthy(app.commands.get('plugin:hello'))
  t.is(await app.views.render('greet', { name: 'kiln' }), '<p>KILN!</p>')
})

test('an unknown middleware alias on a route fails at boot, naming it', async (t) => {
  const plugin = definePlugin({
    name: 'typo',
    boot(app: Application) {
      app.router.get('/x', () => 'x').middleware(['atuh:web'])
    },
  })
  await t.throwsAsync(createApp({ root: tempApp(), env: { APP_ENV: 'test' }, plugins: [plugin] }), { message: /Unknown middleware "atuh"/ })
})

test('each app has its own container and config: two apps in one process stay apart', async (t) => {
  const a = await createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_NAME: 'A' } })
  const b = await createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_NAME: 'B' } })
  t.teardown(async () => {
    await a.close()
    await b.close()
  })
  a.router.get('/name', ({ app }) => app.config.get('app.name'))
  b.router.get('/name', ({ app }) => app.config.get('app.name'))
  t.is(await (await a.request('/name')).text(), 'A')
  t.is(await (await b.request('/name')).text(), 'B')
  t.not(a.router, b.router)
})
