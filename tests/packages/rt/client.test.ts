import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import test from 'ava'
import WebSocket from 'ws'
import { Rt, backoff, type Member, type RtState, type SocketConstructor } from '@kiln/rt'
import { buildRtBundle } from '../../../packages/rt/build.ts'
import { KEY, rtApp, TestSocket, type RtApp } from '../../drivers/broadcast/websocket/rt-fixtures.ts'
import { rtCluster } from '../../drivers/broadcast/websocket/scaling-fixtures.ts'
import { channelAuth, sharedSecret } from '../../../plugins/broadcasting/index.ts'

const waitFor = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10))
  return check()
}

/** An auth endpoint that signs like /broadcasting/auth, for a Node client with no browser session. */
function signingRoute(app: RtApp['app'], users: Record<string, Member>) {
  app.router.post('/node-auth', async (ctx) => {
    const socketId = ctx.request.input('socket_id') as string
    const channel = ctx.request.input('channel_name') as string
    const user = users[ctx.request.header('authorization') ?? '']
    if (!user) return new Response(JSON.stringify({ message: 'Unauthenticated.' }), { status: 403, headers: { 'content-type': 'application/json' } })
    const data = channel.startsWith('presence-') ? JSON.stringify(user) : undefined
    return { auth: channelAuth(KEY, 'rt-secret', socketId, channel, data), ...(data ? { channel_data: data } : {}) }
  })
}

function client(rt: RtApp, token = 'alice', extra: Partial<ConstructorParameters<typeof Rt>[0]> = {}) {
  return new Rt({
    wsUrl: rt.socketUrl,
    authEndpoint: `${rt.url}/node-auth`,
    WebSocket: WebSocket as unknown as SocketConstructor,
    headers: { authorization: token },
    ...extra,
  })
}

const users = { alice: { user_id: 1, user_info: { name: 'Alice' } }, bob: { user_id: 2, user_info: { name: 'Bob' } } }

test('connect(), socketId, socketIdHeader(), channel().listen() and stopListening()', async (t) => {
  const rt = await rtApp(t)
  const states: RtState[] = []
  const alice = client(rt, 'alice', { onStateChange: (state) => states.push(state) })
  t.teardown(() => alice.disconnect())
  t.deepEqual(alice.socketIdHeader(), {})
  await alice.connect()
  t.regex(alice.socketId!, /^\d+\.\d+$/)
  t.deepEqual(alice.socketIdHeader(), { 'X-Socket-ID': alice.socketId! })
  const got: unknown[] = []
  const news = alice.channel('news').listen('.Published', (data) => got.push(data))
  t.true(await waitFor(() => news.subscribed))
  await rt.broadcaster.broadcast({ channels: ['news'], event: 'Published', payload: { id: 1 } })
  t.true(await waitFor(() => got.length === 1))
  t.deepEqual(got, [{ id: 1 }])
  news.stopListening('Published')
  await rt.broadcaster.broadcast({ channels: ['news'], event: 'Published', payload: { id: 2 } })
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.is(got.length, 1)
  t.deepEqual(states, ['connecting', 'connected'])
})

test('private and presence channels are authorised through the auth endpoint; here/joining/leaving; whispers', async (t) => {
  const rt = await rtApp(t, { client_events: true }, { routes: (app) => signingRoute(app, users) })
  const alice = client(rt, 'alice')
  const bob = client(rt, 'bob')
  t.teardown(() => {
    alice.disconnect()
    bob.disconnect()
  })
  await Promise.all([alice.connect(), bob.connect()])
  const joined: Member[] = []
  const left: Member[] = []
  let here: Member[] = []
  const room = alice
    .join('chat')
    .here((m) => (here = m))
    .joining((m) => joined.push(m))
    .leaving((m) => left.push(m))
  t.true(await waitFor(() => here.length === 1))
  const typing: unknown[] = []
  room.listenForWhisper('typing', (data) => typing.push(data))
  const bobRoom = bob.join('chat')
  t.true(await waitFor(() => joined.length === 1))
  t.deepEqual(joined, [users.bob])
  t.deepEqual([...bobRoom.members.keys()].sort(), ['1', '2'])
  bobRoom.whisper('typing', { name: 'Bob' })
  t.true(await waitFor(() => typing.length === 1))
  t.deepEqual(typing, [{ name: 'Bob' }])

  const orders: unknown[] = []
  bob.private('orders.1').listen('OrderShipped', (data) => orders.push(data))
  t.true(await waitFor(() => bob.private('orders.1').subscribed))
  await rt.broadcaster.broadcast({ channels: ['private-orders.1'], event: 'OrderShipped', payload: { id: 1 } })
  t.true(await waitFor(() => orders.length === 1))

  bob.leave('chat')
  t.true(await waitFor(() => left.length === 1))
  t.is(left[0].user_id, 2)
})

test('a refused authorisation reaches the channel error callback', async (t) => {
  const rt = await rtApp(t, {}, { routes: (app) => signingRoute(app, users) })
  const stranger = client(rt, 'nobody')
  t.teardown(() => stranger.disconnect())
  await stranger.connect()
  const errors: Array<{ code: number; message: string }> = []
  stranger.private('orders.1').error((e) => errors.push(e))
  t.true(await waitFor(() => errors.length === 1))
  t.regex(errors[0].message, /HTTP 403/)
})

test('fetch() sends X-Socket-ID, so toOthers() skips this client', async (t) => {
  const rt = await rtApp(t, {}, { routes: (app) => app.router.post('/echo-socket', (ctx) => ({ socket: ctx.request.header('x-socket-id') ?? null })) })
  const alice = client(rt)
  t.teardown(() => alice.disconnect())
  await alice.connect()
  const response = await alice.fetch(`${rt.url}/echo-socket`, { method: 'POST' })
  t.deepEqual(await response.json(), { socket: alice.socketId })
})

test('reconnect: after a server restart the client gets a new socket id, re-authorises and resubscribes', async (t) => {
  const first = await rtApp(t, {}, { routes: (app) => signingRoute(app, users) })
  const port = Number(new URL(first.url).port)
  const alice = client(first, 'alice', { reconnect: { initialDelayMs: 50, maxDelayMs: 200 } })
  t.teardown(() => alice.disconnect())
  await alice.connect()
  const before = alice.socketId
  const got: unknown[] = []
  alice.private('orders.1').listen('OrderShipped', (data) => got.push(data))
  alice.channel('news').listen('Published', (data) => got.push(data))
  t.true(await waitFor(() => alice.private('orders.1').subscribed))
  await first.app.close()
  t.true(await waitFor(() => alice.state === 'connecting'))

  const { createApp } = await import('../../../core/index.ts')
  const { broadcasting } = await import('../../../plugins/broadcasting/index.ts')
  const websocketDriver = (await import('../../../drivers/broadcast/websocket/index.ts')).default
  const { tempApp } = await import('../../fixtures/temp-app.ts')
  const second = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), websocketDriver],
    config: { broadcasting: { default: 'rt', connections: { rt: { driver: 'rt', key: KEY, secret: 'rt-secret' } } } },
  })
  signingRoute(second, users)
  t.teardown(() => second.close())
  await second.listen({ port })
  t.true(await waitFor(() => alice.state === 'connected' && alice.private('orders.1').subscribed && alice.channel('news').subscribed, 10_000))
  t.not(alice.socketId, before)
  await second
    .service('broadcast')
    .connection()
    .broadcast({ channels: ['private-orders.1', 'news'], event: 'OrderShipped', payload: { id: 9 } })
  t.true(await waitFor(() => got.length === 1))
  t.deepEqual(got, [{ id: 9 }])
})

test('a fatal refusal (4000–4099) makes the client unavailable, with no reconnect', async (t) => {
  const rt = await rtApp(t, { max_connections: 1 })
  const holder = new TestSocket(rt.socketUrl)
  await holder.ready()
  t.teardown(() => holder.close())
  const states: RtState[] = []
  const late = client(rt, 'alice', { onStateChange: (s) => states.push(s), reconnect: { initialDelayMs: 10, maxDelayMs: 20 } })
  const error = await t.throwsAsync(late.connect())
  t.is((error as Error & { code: number }).code, 4004)
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.deepEqual(states, ['connecting', 'unavailable'])
})

test('disconnect() closes for good', async (t) => {
  const rt = await rtApp(t)
  const alice = client(rt, 'alice', { reconnect: { initialDelayMs: 10, maxDelayMs: 20 } })
  await alice.connect()
  alice.disconnect()
  t.true(await waitFor(() => rt.broadcaster.server.size === 0))
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.is(alice.state, 'disconnected')
  t.is(rt.broadcaster.server.size, 0)
})

test.serial("a subscription refused while the server's Redis is down (4310) is tried again by itself and works once Redis is back", async (t) => {
  const {
    redis,
    nodes: [rt],
  } = await rtCluster(t, { nodes: 1 })
  const alice = client(rt!, 'alice', { reconnect: { initialDelayMs: 100, maxDelayMs: 400 } })
  t.teardown(() => alice.disconnect())
  await alice.connect()
  await redis.stop()
  const errors: number[] = []
  const got: unknown[] = []
  const news = alice
    .channel('news')
    .error((error) => errors.push(error.code))
    .listen('Published', (data) => got.push(data))
  t.true(await waitFor(() => errors.length > 0))
  t.is(errors[0], 4310)
  t.false(news.subscribed)
  await redis.start()
  t.true(await waitFor(() => news.subscribed, 15_000), 'subscribed again without the app asking')
  await rt.broadcaster.broadcast({ channels: ['news'], event: 'Published', payload: { id: 1 } })
  t.true(await waitFor(() => got.length === 1))
  t.is(alice.state, 'connected', 'the socket itself stayed open')
})

const MASTER = randomBytes(32)
const OTHER_MASTER = randomBytes(32)

/** Signs encrypted channels: `alice` gets the channel's key, `stale` a wrong one first and the right one after, `wrong` never the right one, `plain` none. */
function encryptedSigningRoute(app: RtApp['app'], broadcaster: () => RtApp['broadcaster']) {
  let staleServed = false
  app.router.post('/node-auth', async (ctx) => {
    const socketId = ctx.request.input('socket_id') as string
    const channel = ctx.request.input('channel_name') as string
    const who = ctx.request.header('authorization')
    const { auth, shared_secret: secret } = broadcaster().signChannel(socketId, channel)
    if (who === 'plain') return { auth }
    const wrongKey = who === 'wrong' || (who === 'stale' && !staleServed)
    if (who === 'stale') staleServed = true
    return { auth, shared_secret: wrongKey ? sharedSecret(channel, OTHER_MASTER) : secret }
  })
}

test("encryptedPrivate() opens sealed events with the auth endpoint's shared_secret; the wire carries only ciphertext", async (t) => {
  const rt: RtApp = await rtApp(t, { encryption_master_key: MASTER.toString('base64') }, { routes: (app) => encryptedSigningRoute(app, () => rt.broadcaster) })
  const alice = client(rt, 'alice')
  t.teardown(() => alice.disconnect())
  await alice.connect()
  const got: unknown[] = []
  const vault = alice.encryptedPrivate('vault.1').listen('PinChanged', (data) => got.push(data))
  t.is(vault.name, 'private-encrypted-vault.1')
  t.true(await waitFor(() => vault.subscribed))
  // A socket that subscribes with a valid signature but has no key sees the same event sealed.
  const { socket, id } = await rt.connect()
  socket.send({ event: 'subscribe', data: { channel: 'private-encrypted-vault.1', auth: rt.broadcaster.signChannel(id, 'private-encrypted-vault.1').auth } })
  await socket.event('svc:subscription_succeeded')
  await rt.broadcaster.broadcast({ channels: ['private-encrypted-vault.1'], event: 'PinChanged', payload: { pin: 1234 } })
  t.true(await waitFor(() => got.length === 1))
  t.deepEqual(got, [{ pin: 1234 }])
  const sealed = await socket.event('PinChanged')
  t.deepEqual(Object.keys(sealed.data).sort(), ['ciphertext', 'nonce'])
  t.false(JSON.stringify(sealed).includes('1234'))
  // Asked for by the wrong name, the channel is refused rather than handing listeners ciphertext.
  t.throws(() => alice.private('encrypted-vault.2'), {
    message: /private-encrypted-vault\.2 is an end-to-end encrypted channel: listen to it with rt\.encryptedPrivate\(\)/,
  })
})

test('an encrypted event that does not open is retried once with a fresh key, then dropped and reported with 4390', async (t) => {
  const rt: RtApp = await rtApp(t, { encryption_master_key: MASTER.toString('base64') }, { routes: (app) => encryptedSigningRoute(app, () => rt.broadcaster) })
  const stale = client(rt, 'stale')
  const wrong = client(rt, 'wrong')
  const plain = client(rt, 'plain')
  t.teardown(() => [stale, wrong, plain].forEach((c) => c.disconnect()))
  await Promise.all([stale.connect(), wrong.connect(), plain.connect()])
  const fromStale: unknown[] = []
  const fromWrong: unknown[] = []
  const errors: Array<{ code: number; message: string }> = []
  const plainErrors: Array<{ code: number; message: string }> = []
  const staleVault = stale.encryptedPrivate('vault.1').listen('PinChanged', (data) => fromStale.push(data))
  const wrongVault = wrong
    .encryptedPrivate('vault.1')
    .listen('PinChanged', (data) => fromWrong.push(data))
    .error((e) => errors.push(e))
  plain.encryptedPrivate('vault.1').error((e) => plainErrors.push(e))
  t.true(await waitFor(() => staleVault.subscribed && wrongVault.subscribed && plainErrors.length === 1))
  t.is(plainErrors[0]!.code, 4304)
  t.regex(plainErrors[0]!.message, /no valid shared_secret for private-encrypted-vault\.1/)
  await rt.broadcaster.broadcast({ channels: ['private-encrypted-vault.1'], event: 'PinChanged', payload: { pin: 1 } })
  t.true(await waitFor(() => fromStale.length === 1 && errors.length === 1))
  t.deepEqual(fromStale, [{ pin: 1 }], 'opened after one fresh authorisation')
  t.deepEqual(fromWrong, [], 'never ciphertext in a listener')
  t.is(errors[0]!.code, 4390)
  t.regex(errors[0]!.message, /"PinChanged" on private-encrypted-vault\.1 could not be decrypted, even with a fresh key/)
  // The refreshed key stays: the next event opens at once.
  await rt.broadcaster.broadcast({ channels: ['private-encrypted-vault.1'], event: 'PinChanged', payload: { pin: 2 } })
  t.true(await waitFor(() => fromStale.length === 2))
  t.deepEqual(fromStale[1], { pin: 2 })
})

test('backoff grows exponentially with jitter and is capped', (t) => {
  t.is(
    backoff(0, 500, 10_000, () => 0),
    250,
  )
  t.is(
    backoff(3, 500, 10_000, () => 1),
    4000,
  )
  t.is(
    backoff(20, 500, 10_000, () => 1),
    10_000,
  )
})

test('the committed browser bundle matches the source, and the app serves it', async (t) => {
  const built = await buildRtBundle()
  t.deepEqual(Object.keys(built).sort(), ['rt-sealed.js', 'rt.js'])
  const rt = await rtApp(t)
  for (const [file, text] of Object.entries(built)) {
    const committed = readFileSync(new URL(`../../../packages/rt/dist/${file}`, import.meta.url), 'utf8')
    t.is(committed, text, `run \`npm run build -w @kiln/rt\` and commit packages/rt/dist/${file}`)
    const response = await fetch(`${rt.url}/broadcasting/${file}`)
    t.is(response.status, 200)
    t.regex(response.headers.get('content-type')!, /javascript/)
    t.is(await response.text(), committed)
  }
  // rt.js loads the decryption from beside itself, only when needed.
  t.true(built['rt.js']!.includes('import("./rt-sealed.js")'))
})
