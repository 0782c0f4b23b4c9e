import test from 'ava'
import { z } from 'zod'
import { ConfigError, createApp, csrfToken, definePlugin, Encrypter, KilnError } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** What an error says about itself: its class and its stable code. */
function described(error: unknown): { kiln: boolean; code: unknown } {
  return { kiln: error instanceof KilnError, code: (error as { code?: unknown }).code }
}

test('errors a developer meets are KilnErrors with stable codes, whatever their message says', async (t) => {
  const plugin = definePlugin({ name: 'retry', config: { file: 'retry', schema: z.object({ retries: z.number() }) } })
  const badConfig = await t.throwsAsync(
    createApp({ root: tempApp({ 'config/retry.ts': "export default { retries: 'many' }\n" }), env: { APP_ENV: 'test' }, plugins: [plugin] }),
    { instanceOf: ConfigError },
  )
  t.deepEqual(described(badConfig), { kiln: true, code: 'E_CONFIG' })

  t.deepEqual(described(t.throws(() => new Encrypter(Buffer.alloc(5)))), { kiln: true, code: 'E_ENCRYPTION_KEY' })

  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  // csrfToken() on a route outside the `web` group, where there is no session.
  app.router.get('/no-session', (ctx) => {
    try {
      return { token: csrfToken(ctx) }
    } catch (error) {
      return described(error)
    }
  })
  t.deepEqual(await (await app.request('/no-session', { headers: { accept: 'application/json' } })).json(), { kiln: true, code: 'E_SESSION_MISSING' })

  t.deepEqual(described(t.throws(() => app.service('publisher').publish('no-such-tag', app.root))), { kiln: true, code: 'E_PUBLISH_TAG' })

  t.is(new KilnError('Something else.').code, 'E_KILN', 'an error with no code of its own still has one')
})
