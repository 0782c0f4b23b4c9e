import test from 'ava'
import Pusher from 'pusher'
import { createApp } from '../../../../core/index.ts'
import hostedDriver from '../../../../drivers/broadcast/hosted/index.ts'
import websocketDriver from '../../../../drivers/broadcast/websocket/index.ts'
import { broadcasting } from '../../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { join, TestSocket } from '../websocket/rt-fixtures.ts'

// End to end: a real Kiln rt server plays the hosted service, so the hosted driver's requests go through
// Kiln's Pusher HTTP API into the rt server's own hub and out to native sockets.
const credentials = { app_id: 'kiln-app', key: 'app-key', secret: 'app-secret' }
const service = await createApp({
  root: tempApp(),
  env: { APP_ENV: 'test' },
  plugins: [broadcasting(), websocketDriver],
  config: { broadcasting: { default: 'rt', connections: { rt: { driver: 'rt', ...credentials } } } },
})
const server = await service.listen({ port: 0, host: '127.0.0.1' })
test.after.always(() => service.close())

const socketUrl = `ws://127.0.0.1:${server.port}/broadcasting/socket`
async function subscriber(t: { teardown(fn: () => unknown): void }, channels: string[]) {
  const socket = new TestSocket(socketUrl)
  t.teardown(() => socket.close())
  const id = await socket.ready()
  for (const channel of channels) await join(socket, id, channel)
  return { socket, id }
}

test('hosted → Kiln Pusher HTTP API → rt → native sockets; socket_id (toOthers) is honoured', async (t) => {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), hostedDriver],
    config: {
      broadcasting: { default: 'hosted', connections: { hosted: { driver: 'hosted', ...credentials, host: '127.0.0.1', port: server.port, scheme: 'http' } } },
    },
  })
  t.teardown(() => app.close())
  const hosted = app.service('broadcast').connection()
  const a = await subscriber(t, ['hosted-news'])
  const b = await subscriber(t, ['hosted-news'])
  await hosted.broadcast({ channels: ['hosted-news'], event: 'Published', payload: { id: 1 }, socket: b.id })
  t.deepEqual(await a.socket.event('Published'), { event: 'Published', channel: 'hosted-news', data: { id: 1 } })
  t.true(await b.socket.nothing((f) => f.event === 'Published'))
})

test('the pusher SDK queries the rt server: channels, one channel and presence users', async (t) => {
  const sdk = new Pusher({
    appId: credentials.app_id,
    key: credentials.key,
    secret: credentials.secret,
    host: '127.0.0.1',
    port: String(server.port),
    useTLS: false,
  })
  await subscriber(t, ['stats-room'])
  const b = new TestSocket(socketUrl)
  t.teardown(() => b.close())
  const bId = await b.ready()
  t.is((await join(b, bId, 'presence-lobby', { user_id: 5, user_info: { name: 'Eve' } }, credentials)).event, 'svc:subscription_succeeded')
  const channels = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json()
  t.deepEqual(channels, { channels: { 'presence-lobby': { user_count: 1 } } })
  t.deepEqual(await (await sdk.get({ path: '/channels/stats-room', params: { info: 'subscription_count' } })).json(), { occupied: true, subscription_count: 1 })
  t.deepEqual(await (await sdk.get({ path: '/channels/presence-lobby/users', params: {} })).json(), { users: [{ id: '5' }] })
})
