/**
 * What each socket keeps, kept small (a channel inline, budgets made on
 * first use, the connection on the peer's context, headers read from Node's
 * own object): the limits and the channel bookkeeping still hold.
 */
import test from 'ava'
import { join, rtApp, TestSocket } from './rt-fixtures.ts'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('a socket on several channels (one of them presence) leaves them in any order; the rest keep delivering and counting', async (t) => {
  const rt = await rtApp(t)
  const a = await rt.connect()
  const b = await rt.connect()
  const { server } = rt.broadcaster
  for (const channel of ['news', 'sport']) t.is((await join(a.socket, a.id, channel)).event, 'svc:subscription_succeeded')
  t.is((await join(a.socket, a.id, 'presence-room', { user_id: 7 })).event, 'svc:subscription_succeeded')
  await join(b.socket, b.id, 'presence-room', { user_id: 8 })
  t.deepEqual(await server.channel('news'), { occupied: true, subscriptionCount: 1 })

  // Leaving the first channel joined: the later ones stay.
  a.socket.send({ event: 'unsubscribe', data: { channel: 'news' } })
  await pause(50)
  t.deepEqual(await server.channel('news'), { occupied: false, subscriptionCount: 0 })
  await rt.broadcaster.broadcast({ channels: ['news', 'sport', 'presence-room'], event: 'Hi', payload: {} })
  t.is((await a.socket.event('Hi', 'sport')).channel, 'sport')
  t.is((await a.socket.event('Hi', 'presence-room')).channel, 'presence-room')
  t.true(await a.socket.nothing((f) => f.event === 'Hi' && f.channel === 'news'), 'no longer on news')

  // Joining a channel it is on again answers with success and counts once.
  t.is((await join(a.socket, a.id, 'sport')).event, 'svc:subscription_succeeded')
  t.deepEqual(await server.channel('sport'), { occupied: true, subscriptionCount: 1 })
  t.deepEqual([...(await server.channels('p')).keys()].sort(), ['presence-room'])
  t.deepEqual([...(await server.channels('s')).keys()].sort(), ['sport'])

  // A socket on one channel only leaves it, and can join again.
  const c = await rt.connect()
  await join(c.socket, c.id, 'solo')
  c.socket.send({ event: 'unsubscribe', data: { channel: 'solo' } })
  await pause(50)
  t.deepEqual(await server.channel('solo'), { occupied: false, subscriptionCount: 0 })
  await rt.broadcaster.broadcast({ channels: ['solo'], event: 'Gone', payload: {} })
  t.true(await c.socket.nothing((f) => f.event === 'Gone'))
  t.is((await join(c.socket, c.id, 'solo')).event, 'svc:subscription_succeeded')
  t.deepEqual(await server.channel('solo'), { occupied: true, subscriptionCount: 1 })
  c.socket.close()

  // Leaving presence announces the member; a close leaves the rest.
  a.socket.send({ event: 'unsubscribe', data: { channel: 'presence-room' } })
  t.deepEqual((await b.socket.event('svc:member_removed', 'presence-room')).data, { user_id: 7 })
  t.deepEqual(
    (await server.members('presence-room')).map((m) => m.user_id),
    [8],
  )
  a.socket.close()
  await a.socket.closed
  await pause(50)
  t.deepEqual(await server.channel('sport'), { occupied: false, subscriptionCount: 0 })
  t.deepEqual([...(await server.channels()).keys()], ['presence-room'], 'solo and sport are empty')
})

test('subscribe_rate is a window per socket: refused past the limit, allowed again once the window has passed', async (t) => {
  const rt = await rtApp(t, { subscribe_rate: { limit: 2, per_seconds: 3 } })
  const { socket, id } = await rt.connect()
  t.is((await join(socket, id, 'a')).event, 'svc:subscription_succeeded')
  t.is((await join(socket, id, 'b')).event, 'svc:subscription_succeeded')
  t.is((await join(socket, id, 'c')).data.code, 4306)
  // The window opened at the first subscribe frame; wait it out (the frames above may take a while on a busy machine).
  await pause(3100)
  t.is((await join(socket, id, 'c')).event, 'svc:subscription_succeeded', 'a new window')
  t.is((await join(socket, id, 'd')).event, 'svc:subscription_succeeded')
  t.is((await join(socket, id, 'e')).data.code, 4306, 'and that window has its limit too')
})

test('client_event_rate is a window per socket, made on its first client event: refused past the limit, allowed again after', async (t) => {
  const rt = await rtApp(t, { client_events: true, client_event_rate: { limit: 2, per_seconds: 2 } })
  const a = await rt.connect()
  const b = await rt.connect()
  await join(a.socket, a.id, 'private-room')
  await join(b.socket, b.id, 'private-room')
  const send = (n: number) => a.socket.send({ event: 'client-n', channel: 'private-room', data: { n } })
  send(1)
  send(2)
  send(3)
  t.is((await a.socket.event('svc:error')).data.code, 4301)
  t.deepEqual([(await b.socket.event('client-n')).data.n, (await b.socket.event('client-n')).data.n], [1, 2])
  await pause(2100)
  send(4)
  t.is((await b.socket.event('client-n')).data.n, 4, 'a new window')
  t.true(await b.socket.nothing((f) => f.event === 'client-n' && f.data.n === 3), 'the refused one never arrived')
})

test('behind a trusted proxy (http.trusted_proxies) each forwarded client has its own connection cap, by the kernel’s rule; from anywhere else the headers are ignored', async (t) => {
  const proxied = await rtApp(t, { max_connections_per_address: 1 }, { config: { http: { trusted_proxies: ['loopback'] } } })
  const first = new TestSocket(proxied.socketUrl, { headers: { 'x-forwarded-for': '203.0.113.1' } })
  const second = new TestSocket(proxied.socketUrl, { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.2' } })
  t.regex(await first.ready(), /^\d+\.\d+$/)
  t.regex(await second.ready(), /^\d+\.\d+$/, 'the right-most untrusted entry, the one the proxy added, is the address')
  const again = new TestSocket(proxied.socketUrl, { headers: { 'x-forwarded-for': '10.0.0.9, 203.0.113.1' } })
  t.is((await again.event('svc:error')).data.code, 4004, 'the same address again')
  const viaForwarded = new TestSocket(proxied.socketUrl, { headers: { forwarded: 'for="[2001:db8::7]:4711";proto=https' } })
  t.regex(await viaForwarded.ready(), /^\d+\.\d+$/, 'Forwarded names a client of its own')
  const sameViaForwarded = new TestSocket(proxied.socketUrl, { headers: { forwarded: 'for="[2001:db8::7]"' } })
  t.is((await sameViaForwarded.event('svc:error')).data.code, 4004, 'the same client through Forwarded')
  // A hop inside the trusted range is stepped over: the client is the one before it.
  const throughTwo = new TestSocket(proxied.socketUrl, { headers: { 'x-forwarded-for': '203.0.113.2, 127.0.0.5' } })
  t.is((await throughTwo.event('svc:error')).data.code, 4004, '203.0.113.2 again, through a second trusted proxy')
  for (const socket of [first, second, again, viaForwarded, sameViaForwarded, throughTwo]) socket.raw.terminate()

  // The default: nothing trusted, so the loopback peer is every socket's address whatever the headers say.
  const direct = await rtApp(t, { max_connections_per_address: 1 })
  const one = new TestSocket(direct.socketUrl, { headers: { 'x-forwarded-for': '203.0.113.1' } })
  const other = new TestSocket(direct.socketUrl, { headers: { 'x-forwarded-for': '203.0.113.2' } })
  t.regex(await one.ready(), /^\d+\.\d+$/)
  t.is((await other.event('svc:error')).data.code, 4004, 'both count against 127.0.0.1')
  for (const socket of [one, other]) socket.raw.terminate()
})

test('a websocket connection that still sets its own trusted_proxies stops the boot, saying where the setting moved', async (t) => {
  const error = await t.throwsAsync(rtApp(t, { trusted_proxies: ['127.0.0.1'] }))
  t.is(error?.message.split(':')[0], 'Invalid configuration in config/broadcasting.ts')
  t.regex(error!.message, /connections\.rt\.trusted_proxies: moved to config\/http\.ts as `trusted_proxies` \(the starter reads TRUSTED_PROXIES\)/)
})

test('an Origin header sent twice is read as both values joined, as the Fetch standard reads it: refused', async (t) => {
  const rt = await rtApp(t, { allowed_origins: ['app.example.com'] })
  // A list becomes two header lines on the wire.
  const twice = { Origin: ['https://app.example.com', 'https://evil.example.net'] } as unknown as Record<string, string>
  const socket = new TestSocket(rt.socketUrl, { headers: twice })
  t.is((await socket.event('svc:error')).data.code, 4003)
  t.is((await socket.closed).code, 4003)
  const once = new TestSocket(rt.socketUrl, { headers: { Origin: 'https://app.example.com' } })
  t.regex(await once.ready(), /^\d+\.\d+$/)
  once.close()
})

test("the per-address limits read a socket's address without Node keeping a copy of it on the socket; the cap still holds", async (t) => {
  const rt = await rtApp(t, { max_connections_per_address: 2 })
  await rt.connect()
  await rt.connect()
  const third = new TestSocket(rt.socketUrl)
  t.is((await third.event('svc:error')).data.code, 4004, 'the third from 127.0.0.1')
  // The server side of each socket: Node's remoteAddress would have left `_peername` (an object and a string) on it.
  type Held = { peer: { _internal: { nodeReq: { socket: { _peername?: unknown; remoteAddress?: string } } } } }
  type Holder = { sockets: { byId: Map<string, Held> } }
  // The server's socket registry (on the engine it loads on start, or on the server itself).
  const server = rt.broadcaster.server as unknown as Holder & { engine?: Holder }
  const held = [...(server.engine ?? server).sockets.byId.values()]
  t.is(held.length, 2)
  for (const { peer } of held) {
    t.is(peer._internal.nodeReq.socket._peername, undefined)
    t.regex(peer._internal.nodeReq.socket.remoteAddress ?? '', /127\.0\.0\.1$/, 'what the limits read is the address')
  }
})
