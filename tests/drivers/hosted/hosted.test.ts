import { createHash, createHmac } from 'node:crypto'
import test from 'ava'
import Pusher from 'pusher'
import { createApp } from '../../../core/index.ts'
import hostedDriver from '../../../drivers/hosted/index.ts'
import websocketDriver, { type WebsocketBroadcaster } from '../../../drivers/websocket/index.ts'
import { broadcasting, BroadcastManager } from '../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { broadcasterSuite } from '../../plugins/broadcasting/broadcaster-contract.ts'
import { join, TestSocket } from '../websocket/rt-fixtures.ts'

// A real Kiln rt server plays the hosted service: the hosted driver's requests go through Kiln's Pusher HTTP API.
const credentials = { app_id: 'kiln-app', key: 'app-key', secret: 'app-secret' }
const service = await createApp({
  root: tempApp(),
  env: { APP_ENV: 'test' },
  plugins: [broadcasting(), websocketDriver],
  config: { broadcasting: { default: 'rt', connections: { rt: { driver: 'rt', ...credentials } } } },
})
const server = await service.listen({ port: 0 })
const port = server.port
const rt = service.service<BroadcastManager>('broadcast').connection() as WebsocketBroadcaster
test.after.always(() => service.close())

const hostedConfig = { ...credentials, host: '127.0.0.1', port, scheme: 'http' }
broadcasterSuite(test, 'hosted', [hostedDriver], hostedConfig)

async function hostedApp(t: { teardown(fn: () => unknown): void }, overrides: Record<string, unknown> = {}) {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), hostedDriver],
    config: { broadcasting: { default: 'hosted', connections: { hosted: { driver: 'hosted', ...hostedConfig, ...overrides } } } },
  })
  t.teardown(() => app.close())
  return app.service<BroadcastManager>('broadcast').connection()
}

const socketUrl = `ws://127.0.0.1:${port}/broadcasting/socket`
async function subscriber(channels: string[]) {
  const socket = new TestSocket(socketUrl)
  const id = await socket.ready()
  for (const channel of channels) await join(socket, id, channel)
  return { socket, id }
}

test('hosted → Kiln Pusher HTTP API → native sockets; socket_id (toOthers) is honoured', async (t) => {
  const hosted = await hostedApp(t)
  const a = await subscriber(['hosted-news'])
  const b = await subscriber(['hosted-news'])
  t.teardown(() => {
    a.socket.close()
    b.socket.close()
  })
  await hosted.broadcast({ channels: ['hosted-news'], event: 'Published', payload: { id: 1 }, socket: b.id })
  t.deepEqual(await a.socket.event('Published'), { event: 'Published', channel: 'hosted-news', data: { id: 1 } })
  t.true(await b.socket.nothing((f) => f.event === 'Published'))
})

test('hosted triggers in chunks of at most 100 channels (Kiln refuses more per call)', async (t) => {
  const hosted = await hostedApp(t)
  const channels = Array.from({ length: 250 }, (_, i) => `bulk-${i}`)
  const watcher = await subscriber(['bulk-0', 'bulk-150', 'bulk-249'])
  t.teardown(() => watcher.socket.close())
  await hosted.broadcast({ channels, event: 'Bulk', payload: {} })
  const seen = new Set<string>()
  for (let i = 0; i < 3; i++) seen.add((await watcher.socket.event('Bulk')).channel!)
  t.deepEqual([...seen].sort(), ['bulk-0', 'bulk-150', 'bulk-249'])
})

test('an API error becomes a clear exception naming the connection and status, without the secret', async (t) => {
  const hosted = await hostedApp(t, { secret: 'wrong-secret' })
  const error = await t.throwsAsync(hosted.broadcast({ channels: ['news'], event: 'Published', payload: {} }))
  t.regex(error!.message, /Broadcast connection "hosted" \(hosted\) could not trigger \[Published\] \(HTTP 401/)
  t.notRegex(error!.message, /wrong-secret/)
})

test('the pusher SDK queries channels, one channel and presence users', async (t) => {
  const sdk = new Pusher({ appId: credentials.app_id, key: credentials.key, secret: credentials.secret, host: '127.0.0.1', port: String(port), useTLS: false })
  const a = await subscriber(['stats-room'])
  const b = new TestSocket(socketUrl)
  const bId = await b.ready()
  t.is((await join(b, bId, 'presence-lobby', { user_id: 5, user_info: { name: 'Eve' } }, credentials)).event, 'svc:subscription_succeeded')
  t.teardown(() => {
    a.socket.close()
    b.close()
  })
  const channels = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json()
  t.deepEqual(channels.channels?.['presence-lobby'], { user_count: 1 }, JSON.stringify(channels))
  const one = await (await sdk.get({ path: '/channels/stats-room', params: { info: 'subscription_count' } })).json()
  t.deepEqual(one, { occupied: true, subscription_count: 1 })
  const users = await (await sdk.get({ path: '/channels/presence-lobby/users', params: {} })).json()
  t.deepEqual(users, { users: [{ id: '5' }] })
  t.is(rt.key, 'app-key')
})

/** Signs a request by hand, to send what the SDK never would. */
function signed(method: string, path: string, body: string, overrides: Record<string, string> = {}) {
  const params: Record<string, string> = { auth_key: 'app-key', auth_timestamp: String(Math.floor(Date.now() / 1000)), auth_version: '1.0', ...(body ? { body_md5: createHash('md5').update(body).digest('hex') } : {}), ...overrides }
  const query = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&')
  const signature = createHmac('sha256', 'app-secret').update(`${method}\n${path}\n${query}`).digest('hex')
  return `${server.url}${path}?${query}&auth_signature=${overrides.auth_signature ?? signature}`
}

test('the Pusher HTTP API refuses bad signatures, stale timestamps, wrong apps and bad bodies with a JSON message', async (t) => {
  const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const ok = JSON.stringify({ name: 'E', data: '{}', channels: ['news'] })
  t.is((await post(signed('POST', '/apps/kiln-app/events', ok), ok)).status, 200)
  const cases: Array<[string, string, number]> = [
    [signed('POST', '/apps/kiln-app/events', ok, { auth_signature: 'f'.repeat(64) }), ok, 401],
    [signed('POST', '/apps/kiln-app/events', ok, { auth_timestamp: String(Math.floor(Date.now() / 1000) - 601) }), ok, 401],
    [signed('POST', '/apps/kiln-app/events', ok, { auth_key: 'other' }), ok, 401],
    [signed('POST', '/apps/kiln-app/events', '{"name":"E","data":"{}","channels":["x"]}'), ok, 401],
    [signed('POST', '/apps/other-app/events', ok), ok, 404],
    ...(
      [
        JSON.stringify({ name: 'E', data: {}, channels: ['news'] }),
        JSON.stringify({ name: 'E', data: '{}', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) }),
        JSON.stringify({ name: 'E', data: '{}', channels: ['bad name'] }),
        JSON.stringify({ name: 'svc:member_added', data: '{}', channels: ['news'] }),
        JSON.stringify({ name: 'E', data: '{}', channel: 'news', socket_id: 'nope' }),
      ].map((body) => [signed('POST', '/apps/kiln-app/events', body), body, 400] as [string, string, number])
    ),
    [signed('POST', '/apps/kiln-app/events', JSON.stringify({ name: 'E', data: 'x'.repeat(20_000), channel: 'news' })), JSON.stringify({ name: 'E', data: 'x'.repeat(20_000), channel: 'news' }), 413],
    [signed('POST', '/apps/kiln-app/events', '{"__proto__":{"x":1}}'), '{"__proto__":{"x":1}}', 400],
    [signed('POST', '/apps/kiln-app/batch_events', JSON.stringify({ batch: [] })), JSON.stringify({ batch: [] }), 400],
  ]
  for (const [url, body, status] of cases) {
    const response = await post(url, body)
    t.is(response.status, status, `${body.slice(0, 60)} ${url.slice(-90)}`)
    t.is(typeof (await response.json()).message, 'string')
  }
})

test('the pusher SDK trigger reaches pusher-js-style string data as an object for native clients', async (t) => {
  const sdk = new Pusher({ appId: credentials.app_id, key: credentials.key, secret: credentials.secret, host: '127.0.0.1', port: String(port), useTLS: false })
  const watcher = await subscriber(['sdk-news'])
  t.teardown(() => watcher.socket.close())
  await sdk.triggerBatch([{ channel: 'sdk-news', name: 'One', data: { n: 1 } }, { channel: 'sdk-news', name: 'Two', data: 'plain text' }])
  t.deepEqual((await watcher.socket.event('One')).data, { n: 1 })
  t.is((await watcher.socket.event('Two')).data, 'plain text')
})
