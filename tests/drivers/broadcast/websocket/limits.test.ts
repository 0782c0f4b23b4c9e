import test from 'ava'
import { rtConfigSchema } from '../../../../drivers/broadcast/websocket/index.ts'
import { join, KEY, rtApp, TestSocket } from './rt-fixtures.ts'

test('malformed frames get svc:error with a code and the socket stays usable', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  const cases: Array<[string, number]> = [
    ['{not json', 4300],
    ['[1,2,3]', 4300],
    ['"a string"', 4300],
    ['{"data":{}}', 4303],
    ['{"event":"subscribe"}', 4303],
    ['{"event":"subscribe","data":{"channel":"bad channel!"}}', 4303],
    ['{"event":"subscribe","data":{"channel":"news","auth":5}}', 4303],
    ['{"event":"client-x","data":{}}', 4303],
    ['{"event":"teleport","data":{}}', 4302],
    [JSON.stringify({ event: 'x'.repeat(201) }), 4303],
  ]
  for (const [frame, code] of cases) {
    socket.send(frame)
    const error = await socket.event('svc:error')
    t.is(error.data.code, code, frame)
    t.is(typeof error.data.message, 'string')
  }
  socket.raw.send(Buffer.from([1, 2, 3]), { binary: true })
  t.is((await socket.event('svc:error')).data.code, 4300, 'binary frames are refused')
  t.is((await join(socket, id, 'news')).event, 'svc:subscription_succeeded')
})

test('an oversize frame gets error 4009 and the socket is closed with 4009; others are unaffected', async (t) => {
  const rt = await rtApp(t, { max_frame_bytes: 1000 })
  const bystander = await rt.connect()
  const { socket } = await rt.connect()
  socket.send({ event: 'ping', data: { pad: 'é'.repeat(600) } })
  t.is((await socket.event('svc:error')).data.code, 4009)
  t.is((await socket.closed).code, 4009)
  bystander.socket.send({ event: 'ping' })
  t.truthy(await bystander.socket.event('svc:pong'))
})

test('max_connections: the next connection gets 4004 and is closed', async (t) => {
  const rt = await rtApp(t, { max_connections: 2 })
  await rt.connect()
  const second = await rt.connect()
  const third = new TestSocket(rt.socketUrl)
  t.is((await third.event('svc:error')).data.code, 4004)
  t.is((await third.closed).code, 4004)
  second.socket.close()
  await second.socket.closed
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.regex((await rt.connect()).id, /^\d+\.\d+$/, 'a freed slot is usable again')
})

test('allowed_origins: other origins get 4003 and are closed; listed ones and wildcards connect', async (t) => {
  const rt = await rtApp(t, { allowed_origins: ['app.example.com', '*.example.org'] })
  const evil = new TestSocket(rt.socketUrl, { origin: 'https://example.com.evil.io' })
  t.is((await evil.event('svc:error')).data.code, 4003)
  t.is((await evil.closed).code, 4003)
  for (const origin of ['https://app.example.com', 'https://tenant.example.org']) {
    const ok = new TestSocket(rt.socketUrl, { origin })
    t.regex((await ok.ready()) as string, /^\d+\.\d+$/, origin)
    ok.close()
  }
})

test("by default only the app's own pages connect: its own host or APP_URL's; another site's page gets 4003; clients without an Origin connect", async (t) => {
  const rt = await rtApp(t, {}, { config: { app: { url: 'https://shop.example.com' } } })
  const host = new URL(rt.url).host
  const evil = new TestSocket(rt.socketUrl, { origin: 'https://evil.example.net' })
  t.is((await evil.event('svc:error')).data.code, 4003, "another site's page")
  t.is((await evil.closed).code, 4003)
  for (const origin of [`http://${host}`, 'https://shop.example.com', undefined]) {
    const ok = new TestSocket(rt.socketUrl, origin ? { origin } : {})
    t.regex((await ok.ready()) as string, /^\d+\.\d+$/, origin ?? 'no Origin')
    ok.close()
  }
  t.deepEqual(rt.broadcaster.server.config.allowed_origins, ['shop.example.com'], 'nothing else is allowed unless configured')
})

test('activity timeout: a socket that never answers pings is dropped; a live one is kept', async (t) => {
  const rt = await rtApp(t, { activity_timeout: 0.3 })
  const dead = new TestSocket(rt.socketUrl, { autoPong: false })
  const alive = new TestSocket(rt.socketUrl)
  await dead.ready()
  await alive.ready()
  const closed = await dead.closed
  t.true(closed.code === 4201 || closed.code === 1006, `closed with ${closed.code}`)
  t.is(alive.raw.readyState, alive.raw.OPEN, 'a socket that answers pings stays')
  t.is(rt.broadcaster.server.size, 1)
  alive.close()
})

test('channel info: subscription counts and presence user counts', async (t) => {
  const rt = await rtApp(t)
  const a = await rt.connect()
  const b = await rt.connect()
  await join(a.socket, a.id, 'news')
  await join(b.socket, b.id, 'news')
  await join(a.socket, a.id, 'presence-room', { user_id: 1 })
  await join(b.socket, b.id, 'presence-room', { user_id: 1 })
  const { server } = rt.broadcaster
  t.deepEqual(await server.channel('news'), { occupied: true, subscriptionCount: 2 })
  t.deepEqual(await server.channel('presence-room'), { occupied: true, subscriptionCount: 2, userCount: 1 })
  t.deepEqual([...(await server.channels('pres')).keys()], ['presence-room'])
  b.socket.close()
  await b.socket.closed
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.deepEqual(await server.channel('news'), { occupied: true, subscriptionCount: 1 })
})

test('a client that stops reading is dropped once its send buffer passes max_buffered_bytes; others keep receiving', async (t) => {
  const rt = await rtApp(t, { max_buffered_bytes: 256 * 1024 })
  const stalled = await rt.connect()
  const reader = await rt.connect()
  await join(stalled.socket, stalled.id, 'firehose')
  await join(reader.socket, reader.id, 'firehose')
  ;(stalled.socket.raw as unknown as { _socket: { pause(): void } })._socket.pause()
  const chunk = 'x'.repeat(8 * 1024)
  for (let i = 0; i < 2000 && rt.broadcaster.server.size === 2; i++) {
    await rt.broadcaster.broadcast({ channels: ['firehose'], event: 'Chunk', payload: { i, chunk } })
    if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  t.is(rt.broadcaster.server.size, 1, 'the stalled socket was dropped')
  await rt.broadcaster.broadcast({ channels: ['firehose'], event: 'After', payload: {} })
  t.truthy(await reader.socket.event('After', undefined, 20_000), 'the reading client still gets broadcasts')
})

/** Polls until `check` holds (a close reaches the server a moment after the client sees it). */
async function until(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

test('max_connections_per_address: sockets past the cap from one address get 4004 and a close (pusher:error on /app/{key}); HTTP still answers', async (t) => {
  const rt = await rtApp(t, { max_connections_per_address: 3 }, { routes: (app) => app.router.get('/up', () => ({ ok: true })) })
  const held = [await rt.connect(), await rt.connect(), await rt.connect()]
  for (let i = 0; i < 3; i++) {
    const refused = new TestSocket(rt.socketUrl)
    const error = await refused.event('svc:error')
    t.is(error.data.code, 4004)
    t.regex(error.data.message, /address/)
    t.is((await refused.closed).code, 4004)
  }
  const pusher = new TestSocket(`${rt.socketUrl.replace('/broadcasting/socket', '')}/app/${KEY}?protocol=7`)
  t.is((await pusher.event('pusher:error')).data.code, 4004, 'the Pusher endpoint counts against the same cap')
  t.is((await pusher.closed).code, 4004)
  const response = await fetch(`${rt.url}/up`)
  t.is(response.status, 200, 'HTTP answers while sockets are refused')
  t.is(rt.broadcaster.server.size, 3)
  held[0]!.socket.close()
  t.true(await until(() => rt.broadcaster.server.size === 2))
  t.regex((await rt.connect()).id, /^\d+\.\d+$/, 'a freed slot is usable again')
})

test('subscribe_rate: subscriptions past the limit get svc:error 4306 on that channel and the socket stays open', async (t) => {
  const rt = await rtApp(t, { subscribe_rate: { limit: 3, per_seconds: 60 } })
  const { socket, id } = await rt.connect()
  for (const channel of ['a', 'b', 'c']) t.is((await join(socket, id, channel)).event, 'svc:subscription_succeeded', channel)
  const refused = await join(socket, id, 'd')
  t.is(refused.event, 'svc:error')
  t.is(refused.data.code, 4306)
  socket.send({ event: 'ping' })
  t.truthy(await socket.event('svc:pong'), 'a rate-limited socket stays usable')
  const other = await rt.connect()
  t.is((await join(other.socket, other.id, 'd')).event, 'svc:subscription_succeeded', 'the limit is per connection')
})

test("subscribe_rate_per_address: one address's sockets share a budget; pusher clients get a subscription_error with status 429", async (t) => {
  const rt = await rtApp(t, { subscribe_rate_per_address: { limit: 4, per_seconds: 60 } })
  const a = await rt.connect()
  const b = await rt.connect()
  for (const channel of ['a', 'b']) t.is((await join(a.socket, a.id, channel)).event, 'svc:subscription_succeeded')
  for (const channel of ['c', 'd']) t.is((await join(b.socket, b.id, channel)).event, 'svc:subscription_succeeded')
  t.is((await join(b.socket, b.id, 'e')).data.code, 4306)
  const pusher = new TestSocket(`${rt.socketUrl.replace('/broadcasting/socket', '')}/app/${KEY}?protocol=7`)
  await pusher.event('pusher:connection_established')
  pusher.send({ event: 'pusher:subscribe', data: { channel: 'f' } })
  const error = await pusher.event('pusher:subscription_error', 'f')
  t.is(JSON.parse(error.data).status, 429)
  pusher.close()
})

test('the defaults cap connections per process and per address, channels and subscriptions', (t) => {
  const defaults = rtConfigSchema.parse({ driver: 'rt' })
  t.is(defaults.max_connections, 10_000)
  t.is(defaults.max_connections_per_address, 100)
  t.is(defaults.max_channels_per_connection, 100)
  t.deepEqual(defaults.subscribe_rate, { limit: 100, per_seconds: 10 })
  t.deepEqual(defaults.subscribe_rate_per_address, { limit: 1000, per_seconds: 10 })
})
