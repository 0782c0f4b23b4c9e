import test from 'ava'
import { join, rtApp } from './rt-fixtures.ts'

const send = (app: Awaited<ReturnType<typeof rtApp>>['app'], channels: string[], event: string, payload: Record<string, unknown>, socket?: string) =>
  app.service('broadcast').connection().broadcast({ channels, event, payload, socket })

test('the first frame is svc:connection_established with a socket id; ping gets svc:pong', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  t.regex(id, /^\d+\.\d+$/)
  t.not((await rt.connect()).id, id)
  socket.send({ event: 'ping', data: {} })
  t.deepEqual(await socket.event('svc:pong'), { event: 'svc:pong', data: {} })
})

test('connection_established carries activity_timeout', async (t) => {
  const rt = await rtApp(t, { activity_timeout: 45 })
  const socket = new (await import('./rt-fixtures.ts')).TestSocket(rt.socketUrl)
  const frame = await socket.event('svc:connection_established')
  t.is(frame.data.activity_timeout, 45)
  socket.close()
})

test('a public subscription receives broadcasts as {event, channel, data}; unsubscribe stops them', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  t.deepEqual(await join(socket, id, 'news'), { event: 'svc:subscription_succeeded', channel: 'news', data: {} })
  await send(rt.app, ['news', 'other'], 'Published', { id: 1, nested: { ok: true } })
  t.deepEqual(await socket.event('Published'), { event: 'Published', channel: 'news', data: { id: 1, nested: { ok: true } } })
  socket.send({ event: 'unsubscribe', data: { channel: 'news' } })
  socket.send({ event: 'ping' })
  await socket.event('svc:pong')
  await send(rt.app, ['news'], 'Published', { id: 2 })
  t.true(await socket.nothing((frame) => frame.event === 'Published'))
})

test('private channels need a valid auth, checked against this socket id', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  const other = await rt.connect()
  socket.send({ event: 'subscribe', data: { channel: 'private-orders.1' } })
  const missing = await socket.event('svc:error', 'private-orders.1')
  t.is(missing.data.code, 4304)
  socket.send({ event: 'subscribe', data: { channel: 'private-orders.1', auth: 'rt-key:' + 'a'.repeat(64) } })
  t.is((await socket.event('svc:error', 'private-orders.1')).data.code, 4304)
  // Signed for another socket: a leaked auth value is useless elsewhere.
  const stolen = await join(other.socket, other.id, 'private-orders.1')
  t.is(stolen.event, 'svc:subscription_succeeded')
  t.is((await join(socket, id, 'private-orders.1')).event, 'svc:subscription_succeeded')
  await send(rt.app, ['private-orders.1'], 'OrderShipped', { id: 1 })
  t.is((await socket.event('OrderShipped')).channel, 'private-orders.1')
  t.is(socket.raw.readyState, socket.raw.OPEN, 'a refused subscription leaves the socket open')
})

test('presence: members de-duplicated by user_id; member_added/removed only for first and last connections', async (t) => {
  const rt = await rtApp(t)
  const alice1 = await rt.connect()
  const bob = await rt.connect()
  const alice2 = await rt.connect()
  const channel = 'presence-chat'
  const first = await join(alice1.socket, alice1.id, channel, { user_id: 1, user_info: { name: 'Alice' } })
  t.deepEqual(first.data, { members: [{ user_id: 1, user_info: { name: 'Alice' } }] })
  const joined = await join(bob.socket, bob.id, channel, { user_id: 2, user_info: { name: 'Bob' } })
  t.deepEqual(joined.data.members.map((m: { user_id: number }) => m.user_id).sort(), [1, 2])
  t.deepEqual((await alice1.socket.event('svc:member_added', channel)).data, { user_id: 2, user_info: { name: 'Bob' } })
  t.true(await bob.socket.nothing((f) => f.event === 'svc:member_added'), 'no member_added for oneself')

  const again = await join(alice2.socket, alice2.id, channel, { user_id: 1, user_info: { name: 'Alice' } })
  t.is(again.data.members.length, 2, 'a second tab of Alice is not a second member')
  t.true(await bob.socket.nothing((f) => f.event === 'svc:member_added'), 'a second connection of Alice is not announced')

  alice2.socket.close()
  t.true(await bob.socket.nothing((f) => f.event === 'svc:member_removed', 300), 'Alice is still here in another tab')
  alice1.socket.send({ event: 'unsubscribe', data: { channel } })
  t.deepEqual((await bob.socket.event('svc:member_removed', channel)).data, { user_id: 1 })
  t.deepEqual(await rt.broadcaster.server.members(channel), [{ user_id: 2, user_info: { name: 'Bob' } }])
})

test('presence subscriptions need signed channel_data with a user_id', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  t.is((await join(socket, id, 'presence-room')).data.code, 4304)
  const { channelAuth } = await import('../../../../plugins/broadcasting/index.ts')
  for (const data of ['{"user_info":{}}', '{"user_id":"__proto__"}', '{"user_id":null}', 'not json']) {
    socket.send({
      event: 'subscribe',
      data: { channel: 'presence-room', auth: channelAuth('rt-key', 'rt-secret', id, 'presence-room', data), channel_data: data },
    })
    t.is((await socket.event('svc:error', 'presence-room')).data.code, 4304, data)
  }
  // channel_data not covered by the signature: refused.
  socket.send({
    event: 'subscribe',
    data: { channel: 'presence-room', auth: channelAuth('rt-key', 'rt-secret', id, 'presence-room', '{"user_id":1}'), channel_data: '{"user_id":2}' },
  })
  t.is((await socket.event('svc:error', 'presence-room')).data.code, 4304)
})

test('client events are refused unless client_events is on', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  await join(socket, id, 'private-room')
  socket.send({ event: 'client-typing', channel: 'private-room', data: { typing: true } })
  const refused = await socket.event('svc:error')
  t.is(refused.data.code, 4305)
  t.is(socket.raw.readyState, socket.raw.OPEN)
})

test('client events reach the other members of a private or presence channel the sender joined, rate-limited', async (t) => {
  const rt = await rtApp(t, { client_events: true, client_event_rate: { limit: 3, per_seconds: 60 } })
  const a = await rt.connect()
  const b = await rt.connect()
  await join(a.socket, a.id, 'presence-room', { user_id: 'a' })
  await join(b.socket, b.id, 'presence-room', { user_id: 'b' })
  a.socket.send({ event: 'client-typing', channel: 'presence-room', data: { typing: true } })
  t.deepEqual(await b.socket.event('client-typing'), { event: 'client-typing', channel: 'presence-room', data: { typing: true }, user_id: 'a' })
  t.true(await a.socket.nothing((f) => f.event === 'client-typing'), 'not echoed to the sender')

  a.socket.send({ event: 'client-typing', channel: 'news', data: {} })
  t.is((await a.socket.event('svc:error')).data.code, 4305, 'not on public channels')
  a.socket.send({ event: 'client-typing', channel: 'private-elsewhere', data: {} })
  t.is((await a.socket.event('svc:error')).data.code, 4305, 'not on channels the sender did not join')

  a.socket.send({ event: 'client-typing', channel: 'presence-room', data: {} })
  a.socket.send({ event: 'client-typing', channel: 'presence-room', data: {} })
  a.socket.send({ event: 'client-typing', channel: 'presence-room', data: {} })
  t.is((await a.socket.event('svc:error')).data.code, 4301)
  t.is(a.socket.raw.readyState, a.socket.raw.OPEN, 'rate limiting does not disconnect')
})

// Which X-Socket-ID a request may name is tests/plugins/broadcasting/socket-id.test.ts.
test('a broadcast with a socket to leave out (toOthers) skips that socket only', async (t) => {
  const rt = await rtApp(t)
  const me = await rt.connect()
  const other = await rt.connect()
  await join(me.socket, me.id, 'board')
  await join(other.socket, other.id, 'board')
  await rt.broadcaster.broadcast({ channels: ['board'], event: 'Moved', payload: { to: 'e4' }, socket: me.id })
  await rt.broadcaster.broadcast({ channels: ['board'], event: 'Marked', payload: {} })
  t.deepEqual((await other.socket.event('Moved')).data.to, 'e4')
  await me.socket.event('Marked')
  t.false(
    me.socket.frames.some((f) => f.event === 'Moved'),
    'deliveries to one socket keep their order: Moved would have come first',
  )
  // The same id written another way (a leading zero) names no socket here: both get it.
  await rt.broadcaster.broadcast({ channels: ['board'], event: 'Padded', payload: {}, socket: `0${me.id}` })
  await me.socket.event('Padded')
  await other.socket.event('Padded')
  t.pass()
})
