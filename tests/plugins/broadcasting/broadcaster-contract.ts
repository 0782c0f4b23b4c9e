import type { TestFn } from 'ava'
import { createApp, type Application, type Plugin } from '../../../core/index.ts'
import { broadcasting, channelAuth } from '../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/**
 * The contract every broadcaster driver passes (next issue's drivers reuse
 * it): it resolves from config, accepts broadcasts to many channels without
 * throwing, and signs subscriptions Pusher-style with its key and secret.
 */
export function broadcasterSuite(
  test: TestFn,
  driver: string,
  plugins: Plugin[],
  extra: Record<string, unknown> = {},
  observe?: (app: Application) => () => unknown[],
): void {
  const make = async (t: { teardown(fn: () => unknown): void }) => {
    const app = await createApp({
      root: tempApp(),
      env: { APP_ENV: 'test' },
      plugins: [broadcasting(), ...plugins],
      config: { broadcasting: { default: 'main', connections: { main: { driver, key: 'app-key', secret: 'app-secret', ...extra } } } },
    })
    t.teardown(() => app.close())
    return app
  }

  test(`${driver}: resolves from config and broadcasts to several channels`, async (t) => {
    const app = await make(t)
    const seen = observe?.(app)
    const broadcaster = app.service('broadcast').connection()
    await t.notThrowsAsync(broadcaster.broadcast({ channels: ['news', 'private-orders.1'], event: 'Published', payload: { id: 1, nested: { ok: true } } }))
    if (seen) t.true(seen().length > 0, 'the driver observably handled the broadcast')
  })

  test(`${driver}: signs private, presence and encrypted subscriptions with its key and secret`, async (t) => {
    const app = await make(t)
    const broadcaster = app.service('broadcast').connection()
    t.deepEqual(broadcaster.signChannel('1.2', 'private-a'), { auth: channelAuth('app-key', 'app-secret', '1.2', 'private-a') })
    const data = JSON.stringify({ user_id: 1 })
    t.is(broadcaster.signChannel('1.2', 'presence-a', data).auth, channelAuth('app-key', 'app-secret', '1.2', 'presence-a', data))
    const encrypted = broadcaster.signChannel('1.2', 'private-encrypted-a')
    t.is(Buffer.from(encrypted.shared_secret!, 'base64').length, 32)
    t.regex(broadcaster.signUser('1.2', '{"id":"1"}').auth, /^app-key:[a-f0-9]{64}$/)
  })
}
