import { readFileSync } from 'node:fs'
import test from 'ava'
import Pusher from 'pusher'
import { createApp } from '../../../../core/index.ts'
import { registerPusherHttpApi } from '../../../../drivers/broadcast/websocket/http-api/pusher-http-api.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { API, MemoryHub, pusherApiServer, signedPath } from '../hosted/pusher-api-fixtures.ts'

type T = { teardown(fn: () => unknown): void }

/** A listening Kiln app serving the API over a fresh hub, and a `pusher` SDK client pointed at it. */
async function served(t: T, options: Parameters<typeof pusherApiServer>[1] = {}, config: Record<string, unknown> = {}) {
  const hub = new MemoryHub()
  const server = await pusherApiServer(hub, options, config)
  t.teardown(() => server.close())
  const sdk = new Pusher({ ...API, host: '127.0.0.1', port: String(server.port), useTLS: false })
  return { hub, server, sdk, app: server.app }
}

const post = (body: string, path = '/apps/kiln-app/events', overrides: Record<string, string> = {}) =>
  [signedPath('POST', path, body, overrides), { method: 'POST', headers: { 'content-type': 'application/json' }, body }] as const

test('the pusher SDK triggers events; data reaches the hub as the string it sent, with socket_id', async (t) => {
  const { hub, sdk } = await served(t)
  const response = await sdk.trigger('news', 'Published', { id: 1 }, { socket_id: '12.34' })
  t.is(response.status, 200)
  t.deepEqual(await response.json(), {})
  await sdk.trigger(['news', 'private-orders.1', 'news'], 'Plain', 'plain text')
  t.deepEqual(hub.published, [
    { channels: ['news'], event: 'Published', data: '{"id":1}', except: '12.34' },
    { channels: ['news', 'private-orders.1'], event: 'Plain', data: 'plain text' },
  ])
})

test('info on /events answers the counts of each channel it went to', async (t) => {
  const { hub, sdk } = await served(t)
  hub.subscribe('1.1', 'presence-room', { user_id: 1 })
  hub.subscribe('1.2', 'presence-room', { user_id: 1 })
  hub.subscribe('2.1', 'presence-room', { user_id: 2 })
  hub.subscribe('1.1', 'news')
  const response = await sdk.trigger(['presence-room', 'news', 'empty'], 'E', {}, { info: 'user_count,subscription_count' })
  t.deepEqual(await response.json(), {
    channels: { 'presence-room': { subscription_count: 3, user_count: 2 }, news: { subscription_count: 1 }, empty: { subscription_count: 0 } },
  })
})

test('triggerBatch sends every event; info gives one entry per event', async (t) => {
  const { hub, sdk } = await served(t)
  hub.subscribe('1.1', 'presence-room', { user_id: 7 })
  const plain = await sdk.triggerBatch([
    { channel: 'news', name: 'One', data: { n: 1 } },
    { channel: 'sports', name: 'Two', data: 'two', socket_id: '5.6' },
  ])
  t.deepEqual(await plain.json(), {})
  t.deepEqual(hub.published, [
    { channels: ['news'], event: 'One', data: '{"n":1}' },
    { channels: ['sports'], event: 'Two', data: 'two', except: '5.6' },
  ])
  const described = await sdk.triggerBatch([
    { channel: 'presence-room', name: 'A', data: {}, info: 'user_count' },
    { channel: 'news', name: 'B', data: {} },
  ] as Parameters<typeof sdk.triggerBatch>[0])
  t.deepEqual(await described.json(), { batch: [{ user_count: 1 }, {}] })
})

test('a batch with one bad event sends nothing; more than 10 events are refused', async (t) => {
  const { hub, app } = await served(t)
  const mixed = JSON.stringify({
    batch: [
      { name: 'Good', data: '{}', channel: 'news' },
      { name: 'Bad', data: {}, channel: 'news' },
    ],
  })
  const refused = await app.request(...post(mixed, '/apps/kiln-app/batch_events'))
  t.is(refused.status, 400)
  t.regex((await refused.json()).message, /batch\[1\].*"data" must be a string/)
  const eleven = JSON.stringify({ batch: Array.from({ length: 11 }, () => ({ name: 'E', data: '{}', channel: 'news' })) })
  t.is((await app.request(...post(eleven, '/apps/kiln-app/batch_events'))).status, 400)
  t.deepEqual(hub.published, [])
})

test('the pusher SDK queries channels, one channel and presence users', async (t) => {
  const { hub, sdk } = await served(t)
  hub.subscribe('1.1', 'news')
  hub.subscribe('1.2', 'news')
  hub.subscribe('1.1', 'presence-lobby', { user_id: 5, user_info: { name: 'Eve' } })
  hub.subscribe('1.3', 'presence-lobby', { user_id: 5, user_info: { name: 'Eve' } })
  hub.subscribe('1.4', 'presence-lobby', { user_id: 'ann' })
  const get = async (path: string, params: Record<string, string> = {}) => {
    const response = await sdk.get({ path, params })
    return response.json()
  }
  t.deepEqual(await get('/channels'), { channels: { news: {}, 'presence-lobby': {} } })
  t.deepEqual(await get('/channels', { filter_by_prefix: 'presence-', info: 'user_count' }), { channels: { 'presence-lobby': { user_count: 2 } } })
  t.deepEqual(await get('/channels/news', { info: 'subscription_count' }), { occupied: true, subscription_count: 2 })
  t.deepEqual(await get('/channels/presence-lobby', { info: 'user_count,subscription_count' }), { occupied: true, subscription_count: 3, user_count: 2 })
  t.deepEqual(await get('/channels/nobody-here'), { occupied: false })
  t.deepEqual(await get('/channels/presence-lobby/users'), { users: [{ id: '5' }, { id: 'ann' }] })
  for (const [path, params] of [
    ['/channels/news/users', {}],
    ['/channels/news', { info: 'user_count' }],
    ['/channels', { info: 'user_count' }],
    ['/channels', { info: 'members' }],
  ] as const) {
    const error = (await t.throwsAsync(sdk.get({ path, params }), { any: true })) as { status?: number; body?: string } | undefined
    t.is(error!.status, 400, path)
    t.is(typeof JSON.parse(error!.body!).message, 'string')
  }
})

test('every refusal is a 4xx JSON {message} and nothing reaches the hub', async (t) => {
  const { hub, app } = await served(t)
  const ok = JSON.stringify({ name: 'E', data: '{}', channels: ['news'] })
  const now = Math.floor(Date.now() / 1000)
  const event = (fields: Record<string, unknown>) => JSON.stringify({ name: 'E', data: '{}', channel: 'news', ...fields })
  const cases: Array<[string, readonly [string, RequestInit], number]> = [
    ['bad signature', post(ok, undefined, { auth_signature: 'f'.repeat(64) }), 401],
    ['signed with another secret', [signedPath('POST', '/apps/kiln-app/events', ok, {}, 'other-secret'), post(ok)[1]], 401],
    ['stale timestamp', post(ok, undefined, { auth_timestamp: String(now - 1200) }), 401],
    ['future timestamp', post(ok, undefined, { auth_timestamp: String(now + 1200) }), 401],
    ['timestamp not a number', post(ok, undefined, { auth_timestamp: 'soon' }), 401],
    ['wrong key', post(ok, undefined, { auth_key: 'other' }), 401],
    ['auth_version 2.0', post(ok, undefined, { auth_version: '2.0' }), 401],
    ['body_md5 of another body', [signedPath('POST', '/apps/kiln-app/events', event({ channel: 'x' })), post(ok)[1]], 401],
    ['body without body_md5', [signedPath('POST', '/apps/kiln-app/events'), post(ok)[1]], 401],
    ['signature over another path', [signedPath('POST', '/apps/kiln-app/batch_events', ok).replace('batch_events', 'events'), post(ok)[1]], 401],
    ['duplicated parameter', [`${post(ok)[0]}&auth_key=app-key`, post(ok)[1]], 401],
    ['unknown app', post(ok, '/apps/other-app/events'), 404],
    ['data not a string', post(event({ data: {} })), 400],
    ['no name', post(event({ name: undefined })), 400],
    ['event name of 201 characters', post(event({ name: 'e'.repeat(201) })), 400],
    ['reserved event name', post(event({ name: 'pusher:subscribe' })), 400],
    ['reserved svc: event name', post(event({ name: 'svc:member_added' })), 400],
    ['101 channels', post(event({ channel: undefined, channels: Array.from({ length: 101 }, (_, i) => `c${i}`) })), 400],
    ['no channel', post(event({ channel: undefined })), 400],
    ['channel and channels', post(event({ channels: ['news'] })), 400],
    ['channel name with a space', post(event({ channel: 'bad name' })), 400],
    ['channel name of 201 characters', post(event({ channel: 'c'.repeat(201) })), 400],
    ['channel name not a string', post(event({ channel: 42 })), 400],
    ['socket id malformed', post(event({ socket_id: 'nope' })), 400],
    ['unknown info attribute', post(event({ info: 'members' })), 400],
    ['data over 10 KB', post(event({ data: 'x'.repeat(10_241) })), 413],
    ['__proto__ key', post('{"__proto__":{"x":1}}'), 400],
    ['constructor key', post('{"name":"E","data":"{}","channel":"news","constructor":{"x":1}}'), 400],
    ['a JSON array', post('[1,2]'), 400],
    ['not JSON', post('{"name":'), 400],
    [
      'a form body',
      [
        signedPath('POST', '/apps/kiln-app/events', 'name=E&data=x&channel=news'),
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=E&data=x&channel=news' },
      ],
      400,
    ],
    ['no body', [signedPath('POST', '/apps/kiln-app/events'), { method: 'POST' }], 400],
    ['batch not a list', post('{"batch":{"name":"E"}}', '/apps/kiln-app/batch_events'), 400],
    ['empty batch', post('{"batch":[]}', '/apps/kiln-app/batch_events'), 400],
    ['batch entry not an object', post('{"batch":["E"]}', '/apps/kiln-app/batch_events'), 400],
    ['GET without a signature', ['/apps/kiln-app/channels', {}], 401],
    ['GET with an invalid channel name', [signedPath('GET', '/apps/kiln-app/channels/bad%20name'), {}], 400],
  ]
  for (const [label, [path, init], status] of cases) {
    const response = await app.request(path, init)
    t.is(response.status, status, label)
    t.is(typeof (await response.json()).message, 'string', label)
  }
  t.deepEqual(hub.published, [], 'no refused request published anything')
  t.is((await app.request(...post(ok))).status, 200, 'the same body, correctly signed, is accepted')
})

test('maxPayloadBytes sets the data limit', async (t) => {
  const { hub, app } = await served(t, { maxPayloadBytes: 100 })
  const body = (data: string) => JSON.stringify({ name: 'E', data, channel: 'news' })
  t.is((await app.request(...post(body('é'.repeat(50))))).status, 200, '100 bytes')
  const over = await app.request(...post(body(`${'é'.repeat(50)}x`)))
  t.is(over.status, 413, '101 bytes')
  t.regex((await over.json()).message, /limited to 100 bytes/)
  t.is(hub.published.length, 1)
})

test('channel names that are object keys elsewhere stay plain names in the answers', async (t) => {
  const { hub, sdk } = await served(t)
  hub.subscribe('1.1', '__proto__')
  hub.subscribe('1.1', 'constructor')
  const listed = await (await sdk.get({ path: '/channels', params: {} })).json()
  t.true(Object.hasOwn(listed.channels, '__proto__'))
  t.true(Object.hasOwn(listed.channels, 'constructor'))
  const described = await (await sdk.trigger(['__proto__'], 'E', {}, { info: 'subscription_count' })).json()
  t.deepEqual(described.channels.__proto__, { subscription_count: 1 })
  t.true(Object.hasOwn(described.channels, '__proto__'))
})

test('a hub failure is a logged 500 with a JSON message that reveals nothing', async (t) => {
  const { hub, app } = await served(t, {}, { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/api.log' } } })
  hub.failure = new Error('backplane unreachable')
  const response = await app.request(...post(JSON.stringify({ name: 'E', data: 'card 4111', channel: 'news' })))
  t.is(response.status, 500)
  t.deepEqual(await response.json(), { message: 'The request could not be completed.' })
  const log = readFileSync(`${app.root}/storage/logs/api.log`, 'utf8')
  t.regex(log, /Pusher HTTP API: the request failed/)
  t.regex(log, /backplane unreachable/)
  t.notRegex(log, /card 4111|app-secret/)
})

test('a refused signature is logged as a warning, without the secret', async (t) => {
  const { app } = await served(t, {}, { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/api.log' } } })
  t.is((await app.request(...post('{"name":"E","data":"{}","channel":"news"}', undefined, { auth_signature: '0'.repeat(64) }))).status, 401)
  const log = readFileSync(`${app.root}/storage/logs/api.log`, 'utf8')
  t.regex(log, /"level":40.*Invalid auth_signature.*request refused/)
  t.notRegex(log, /app-secret/)
})

test('the routes join no middleware group, even when registered while a route file loads', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  app.router.defaultGroup = 'web'
  registerPusherHttpApi(app.router, { ...API, hub: new MemoryHub() })
  t.is(app.router.defaultGroup, 'web', 'the group is restored')
  const routes = app.router.routes().filter((route) => route.path.startsWith('/apps/'))
  t.is(routes.length, 5)
  for (const route of routes) t.deepEqual(route.allMiddleware(), [], route.path)
})

test('the signature covers the path the client sent, under APP_BASE_PATH', async (t) => {
  const hub = new MemoryHub()
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_BASE_PATH: '/realtime' } })
  t.teardown(() => app.close())
  registerPusherHttpApi(app.router, { ...API, hub })
  const body = JSON.stringify({ name: 'E', data: '{}', channel: 'news' })
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body }
  t.is((await app.request(signedPath('POST', '/realtime/apps/kiln-app/events', body), init)).status, 200)
  t.is((await app.request(signedPath('POST', '/apps/kiln-app/events', body).replace('/apps', '/realtime/apps'), init)).status, 401)
  t.is(hub.published.length, 1)
})
