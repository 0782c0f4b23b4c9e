import test from 'ava'
import PusherJs from 'pusher-js'
import type * as PusherTypes from 'pusher-js/types/src/core/pusher.js'
import { TestSocket } from './rt-fixtures.ts'
import { KEY, rtApp, type RtApp } from './rt-fixtures.ts'

// pusher-js's node build is CommonJS whose module.exports is the class; its typings describe an ES default export.
const Pusher = PusherJs as unknown as new (key: string, options: object) => PusherClient
type PusherClient = PusherTypes.default

/** pusher-js in Node, pointed at Kiln's rt server; channels are authorised by the connection's own signer. */
function pusherClient(
  t: { teardown(fn: () => unknown): void },
  rt: RtApp,
  user?: { user_id: string; user_info: Record<string, unknown> },
): Promise<PusherClient> {
  const port = Number(new URL(rt.url).port)
  const client = new Pusher(KEY, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: (
        { socketId, channelName }: { socketId: string; channelName: string },
        callback: (error: Error | null, data: { auth: string }) => void,
      ) => {
        const data = channelName.startsWith('presence-') ? JSON.stringify(user) : undefined
        callback(null, { ...rt.broadcaster.signChannel(socketId, channelName, data), ...(data ? { channel_data: data } : {}) })
      },
    },
  })
  t.teardown(() => client.disconnect())
  return new Promise((resolve, reject) => {
    client.connection.bind('connected', () => resolve(client))
    client.connection.bind('failed', () => reject(new Error('pusher-js could not connect')))
  })
}

const subscribed = (client: PusherClient, name: string) =>
  new Promise<any>((resolve, reject) => {
    const channel = client.subscribe(name)
    channel.bind('pusher:subscription_succeeded', resolve)
    channel.bind('pusher:subscription_error', reject)
  })

const received = (client: PusherClient, channel: string, event: string) => new Promise<any>((resolve) => client.channel(channel).bind(event, resolve))

test('pusher-js subscribes to public, private and presence channels on /app/{key} and receives broadcasts', async (t) => {
  const rt = await rtApp(t)
  const client = await pusherClient(t, rt, { user_id: '1', user_info: { name: 'Alice' } })
  t.regex(client.connection.socket_id, /^\d+\.\d+$/)
  await subscribed(client, 'news')
  await subscribed(client, 'private-orders.1')
  const members = await subscribed(client, 'presence-chat')
  t.is(members.count, 1)
  t.deepEqual(members.me, { id: '1', info: { name: 'Alice' } })

  const onNews = received(client, 'news', 'Published')
  const onOrder = received(client, 'private-orders.1', 'OrderShipped')
  await rt.broadcaster.broadcast({ channels: ['news', 'private-orders.1'], event: 'Published', payload: { id: 1 } })
  await rt.broadcaster.broadcast({ channels: ['private-orders.1'], event: 'OrderShipped', payload: { id: 2 } })
  t.deepEqual(await onNews, { id: 1 })
  t.deepEqual(await onOrder, { id: 2 })
})

test('pusher-js presence: member_added and member_removed between a pusher-js client and a native client', async (t) => {
  const rt = await rtApp(t, { client_events: true })
  const alice = await pusherClient(t, rt, { user_id: '1', user_info: { name: 'Alice' } })
  await subscribed(alice, 'presence-chat')
  const added = new Promise<any>((resolve) => alice.channel('presence-chat').bind('pusher:member_added', resolve))
  const native = await rt.connect()
  const { join } = await import('./rt-fixtures.ts')
  const joined = await join(native.socket, native.id, 'presence-chat', { user_id: 2, user_info: { name: 'Bob' } })
  t.deepEqual(joined.data.members.map((m: { user_id: unknown }) => String(m.user_id)).sort(), ['1', '2'])
  t.deepEqual(await added, { id: '2', info: { name: 'Bob' } })

  const whisper = new Promise<any>((resolve) => alice.channel('presence-chat').bind('client-typing', resolve))
  native.socket.send({ event: 'client-typing', channel: 'presence-chat', data: { typing: true } })
  t.deepEqual(await whisper, { typing: true })
  alice.channel('presence-chat').trigger('client-typing', { from: 'alice' })
  t.deepEqual((await native.socket.event('client-typing')).data, { from: 'alice' })

  const removed = new Promise<any>((resolve) => alice.channel('presence-chat').bind('pusher:member_removed', resolve))
  native.socket.close()
  t.deepEqual(await removed, { id: '2', info: { name: 'Bob' } })
})

test('a private subscription with a bad signature fails in pusher-js with a subscription error', async (t) => {
  const rt = await rtApp(t)
  const port = Number(new URL(rt.url).port)
  const client = new Pusher(KEY, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: (_params: unknown, callback: (error: Error | null, data: { auth: string }) => void) =>
        callback(null, { auth: `${KEY}:${'0'.repeat(64)}` }),
    },
  })
  t.teardown(() => client.disconnect())
  const error = await new Promise<any>((resolve) => client.subscribe('private-x').bind('pusher:subscription_error', resolve))
  t.is(error.status, 401)
})

test('the Pusher endpoint refuses a wrong app key with pusher:error 4001 and closes', async (t) => {
  const rt = await rtApp(t)
  const socket = new TestSocket(`${rt.url.replace('http', 'ws')}/app/wrong-key?protocol=7`)
  const frame = await socket.next()
  t.deepEqual(frame, { event: 'pusher:error', data: { code: 4001, message: 'App key not in this cluster.' } })
  t.is((await socket.closed).code, 4001)
  const mangled = new TestSocket(`${rt.url.replace('http', 'ws')}/app/%E0%A4%A?protocol=7`)
  t.is((await mangled.next()).data.code, 4001, 'a key that is not valid percent-encoding is refused, not a crash')
  const old = new TestSocket(`${rt.url.replace('http', 'ws')}/app/${KEY}?protocol=3`)
  t.is((await old.next()).data.code, 4007)
})

test('pusher_compatible: false leaves /app/{key} unserved', async (t) => {
  const rt = await rtApp(t, { pusher_compatible: false })
  const socket = new TestSocket(`${rt.url.replace('http', 'ws')}/app/${KEY}`)
  t.not((await socket.closed).code, 1000)
  t.is(socket.frames.length, 0)
})

test('the pusher server SDK triggers an event that reaches both pusher-js and a native @kiln/rt client', async (t) => {
  const { default: PusherSdk } = await import('pusher')
  const { Rt } = await import('@kiln/rt')
  const { default: WebSocket } = await import('ws')
  const rt = await rtApp(t)
  const port = Number(new URL(rt.url).port)
  const js = await pusherClient(t, rt)
  await subscribed(js, 'news')
  const native = new Rt({ wsUrl: rt.socketUrl, WebSocket: WebSocket as never })
  t.teardown(() => native.disconnect())
  await native.connect()
  const nativeGot = new Promise<unknown>((resolve) => native.channel('news').listen('Published', resolve))
  await new Promise<void>((resolve) => native.channel('news').subscribedTo(resolve))
  const jsGot = received(js, 'news', 'Published')
  const sdk = new PusherSdk({ appId: 'kiln', key: KEY, secret: 'rt-secret', host: '127.0.0.1', port: String(port), useTLS: false })
  await sdk.trigger('news', 'Published', { id: 42 })
  t.deepEqual(await jsGot, { id: 42 })
  t.deepEqual(await nativeGot, { id: 42 })
})
