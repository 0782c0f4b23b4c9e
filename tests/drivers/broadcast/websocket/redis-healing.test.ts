import test from 'ava'
import Pusher from 'pusher'
import { waitFor } from '../../../fixtures/redis-server.ts'
import { join, KEY, pusherJs, SECRET, type Frame, type TestSocket } from './rt-fixtures.ts'
import { logLines, rtCluster, userIds } from './scaling-fixtures.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const member = (id: number) => ({ user_id: id, user_info: { name: `user ${id}` } })
const presenceFrames = (socket: TestSocket, userId: number) =>
  socket.frames.filter((f: Frame) => f.channel === 'presence-room' && f.data?.user_id === userId).map((f) => f.event)

test.serial('a subscribe refused while Redis stalled, which Redis carried out once it woke, leaves no ghost member', async (t) => {
  const {
    redis,
    nodes: [a, b],
  } = await rtCluster(t)
  const alice = await a!.connect()
  t.is((await join(alice.socket, alice.id, 'presence-room', member(1))).event, 'svc:subscription_succeeded')

  redis.pause()
  const carol = await b!.connect()
  const refused = await join(carol.socket, carol.id, 'presence-room', member(3))
  t.is(refused.data.code, 4310, 'refused: the client knows it is not subscribed')
  redis.resume()

  // Redis ran the timed-out join when it woke; the roster must still end up without Carol.
  t.true(await waitFor(async () => (await userIds(a!, 'presence-room').catch(() => [])).join() === '1', 8000), `roster: ${await userIds(a!, 'presence-room')}`)
  const dave = await a!.connect()
  const joined = await join(dave.socket, dave.id, 'presence-room', member(4))
  t.deepEqual(joined.data.members.map((m: { user_id: number }) => m.user_id).sort(), [1, 4], 'a newcomer is told who is really here')
})

test.serial(
  'a process cut off from a Redis that keeps its data: a departure during the cut is recorded afterwards; after a long cut the others see its members come back',
  async (t) => {
    // Node a reaches Redis through a link the test cuts; node b is connected directly. Heartbeats every 2 s: a short cut is not a death.
    const {
      nodes: [a, b],
      links: [link],
    } = await rtCluster(t, { linked: [0], heartbeatSeconds: 2 })
    const alice = await a!.connect()
    const ann = await a!.connect()
    const bob = await b!.connect()
    await join(alice.socket, alice.id, 'presence-room', member(1))
    await join(ann.socket, ann.id, 'presence-room', member(3))
    await join(bob.socket, bob.id, 'presence-room', member(2))
    t.deepEqual(await userIds(b!, 'presence-room'), [1, 2, 3])

    link!.cut()
    ann.socket.close()
    await ann.socket.closed
    await sleep(300)
    link!.restore()
    t.true(
      await waitFor(async () => (await userIds(b!, 'presence-room')).join() === '1,2', 10_000),
      `Ann left during the cut: ${await userIds(b!, 'presence-room')}`,
    )
    await bob.socket.event('svc:member_removed', 'presence-room')
    t.deepEqual(presenceFrames(bob.socket, 1), [], 'nobody was told Alice left')

    // A cut longer than three heartbeats: b reaps a, then a comes back and records Alice again.
    link!.cut()
    t.true(await waitFor(async () => (await userIds(b!, 'presence-room')).join() === '2', 15_000), 'b reaped the silent process')
    link!.restore()
    t.true(await waitFor(async () => (await userIds(b!, 'presence-room')).join() === '1,2', 15_000), 'Alice is back on the roster')
    t.true(
      await waitFor(() => presenceFrames(bob.socket, 1).at(-1) === 'svc:member_added'),
      `Bob's page is told Alice is back: ${presenceFrames(bob.socket, 1)}`,
    )
  },
)

test.serial(
  'one warning per outage, a stall included, and one note when each ends; client events, departures and API calls during an outage add no lines',
  async (t) => {
    const {
      redis,
      nodes: [a],
    } = await rtCluster(t, { nodes: 1, options: { client_events: true } })
    const alice = await a!.connect()
    const bob = await a!.connect()
    await join(alice.socket, alice.id, 'private-room')
    await join(bob.socket, bob.id, 'private-room')
    const whisper = () => alice.socket.send({ event: 'client-typing', channel: 'private-room', data: {} })
    const api = new Pusher({ appId: 'kiln', key: KEY, secret: SECRET, host: '127.0.0.1', port: new URL(a!.url).port, useTLS: false })

    redis.pause()
    whisper()
    t.is((await alice.socket.event('svc:error')).data.code, 4310)
    redis.resume()
    t.true(await waitFor(async () => (await join(alice.socket, alice.id, `after-stall-${Date.now()}`)).event === 'svc:subscription_succeeded'))

    await redis.stop()
    for (let i = 0; i < 3; i++) {
      whisper()
      t.is((await alice.socket.event('svc:error')).data.code, 4310)
    }
    const answer = await api.trigger('news', 'During', { n: 1 }).catch((error: { status: number; body: string }) => error)
    t.is((answer as { status: number }).status, 503, 'the Pusher HTTP API answers 503, not 500')
    t.regex(JSON.parse((answer as { body: string }).body).message, /try again/)
    bob.socket.close()
    await bob.socket.closed
    await redis.start()
    t.true(await waitFor(async () => (await join(alice.socket, alice.id, `after-outage-${Date.now()}`)).event === 'svc:subscription_succeeded', 8000))
    t.true(await waitFor(() => logLines(a!).filter((line) => /reachable again/.test(line.msg)).length === 2))

    const lines = logLines(a!).filter((line) => line.level >= 40)
    t.deepEqual(
      lines.map((line) => line.msg),
      ['Redis is unreachable; requests that need it get 503 until it is back', 'Redis is unreachable; requests that need it get 503 until it is back'],
    )
    t.false(JSON.stringify(logLines(a!)).includes('could not record a departure'))
  },
)

test.serial('pusher-js: a subscription while Redis is down fails with status 503 (try again), and trying again succeeds once it is back', async (t) => {
  const {
    redis,
    nodes: [a],
  } = await rtCluster(t, { nodes: 1 })
  const client = await pusherJs(t, KEY, a!.url, (socketId, channel) => a!.broadcaster.signChannel(socketId, channel))
  await redis.stop()
  const channel = client.subscribe('private-orders.1')
  const outcome = () =>
    new Promise<{ ok: boolean; status?: number }>((resolve) => {
      channel.unbind('pusher:subscription_succeeded').unbind('pusher:subscription_error')
      channel.bind('pusher:subscription_succeeded', () => resolve({ ok: true }))
      channel.bind('pusher:subscription_error', (error: { status: number }) => resolve({ ok: false, status: error.status }))
    })
  t.deepEqual(await outcome(), { ok: false, status: 503 })
  await redis.start()
  // What an app does on 503: subscribe again (pusher-js keeps a refused channel pending).
  t.true(
    await waitFor(async () => {
      const next = outcome()
      channel.subscribe()
      return (await next).ok
    }, 10_000),
  )
})
