import test from 'ava'
import { Redis } from 'ioredis'
import PusherSdk from 'pusher'
import { createApp } from '../../../../core/index.ts'
import hostedDriver from '../../../../drivers/broadcast/hosted/index.ts'
import { broadcasting, decryptPayload } from '../../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { join, KEY, pusherJs, rtApp } from './rt-fixtures.ts'
import { logLines, rtCluster } from './scaling-fixtures.ts'

const MASTER_KEY = Buffer.alloc(32, 9).toString('base64')
const CHANNEL = 'private-encrypted-vault.1'

test('rt: a private-encrypted- channel carries only {nonce, ciphertext}; pusher-js opens it with the shared secret from /broadcasting/auth', async (t) => {
  const rt = await rtApp(t, { encryption_master_key: MASTER_KEY })
  const client = await pusherJs(t, KEY, rt.url, (socketId, channel) => rt.broadcaster.signChannel(socketId, channel))
  const channel = client.subscribe(CHANNEL)
  await new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', resolve)
    channel.bind('pusher:subscription_error', reject)
  })

  // A native-protocol socket on the same channel sees what the wire carries.
  const { socket, id } = await rt.connect()
  t.is((await join(socket, id, CHANNEL)).event, 'svc:subscription_succeeded')

  const opened = new Promise((resolve) => channel.bind('SecretShared', resolve))
  await rt.broadcaster.broadcast({ channels: [CHANNEL, 'news'], event: 'SecretShared', payload: { pin: 1234, note: 'plain text never leaves the app' } })
  t.deepEqual(await opened, { pin: 1234, note: 'plain text never leaves the app' })

  const frame = await socket.event('SecretShared', CHANNEL)
  const sealed = typeof frame.data === 'string' ? JSON.parse(frame.data) : frame.data
  t.deepEqual(Object.keys(sealed).sort(), ['ciphertext', 'nonce'])
  t.false(JSON.stringify(frame).includes('1234'))
  t.deepEqual(decryptPayload(CHANNEL, sealed, Buffer.from(MASTER_KEY, 'base64')), { pin: 1234, note: 'plain text never leaves the app' })
})

test('hosted → Kiln rt through the Pusher HTTP API: the SDK seals once, rt passes it on unchanged, pusher-js opens it', async (t) => {
  const credentials = { app_id: 'kiln', key: 'shared-key', secret: 'shared-secret' }
  const rt = await rtApp(t, credentials)
  const sender = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), hostedDriver],
    config: {
      broadcasting: {
        default: 'hosted',
        connections: {
          hosted: {
            driver: 'hosted',
            ...credentials,
            host: '127.0.0.1',
            port: Number(new URL(rt.url).port),
            scheme: 'http',
            encryption_master_key: MASTER_KEY,
          },
        },
      },
    },
  })
  t.teardown(() => sender.close())
  const hosted = sender.service('broadcast').connection()
  // The browser is authorised by the sending app, whose master key sealed the event.
  const client = await pusherJs(t, credentials.key, rt.url, (socketId, channel) => hosted.signChannel(socketId, channel))
  const channel = client.subscribe(CHANNEL)
  await new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', resolve)
    channel.bind('pusher:subscription_error', reject)
  })
  const opened = new Promise((resolve) => channel.bind('SecretShared', resolve))
  await hosted.broadcast({ channels: [CHANNEL, 'news'], event: 'SecretShared', payload: { pin: 4321 } })
  t.deepEqual(await opened, { pin: 4321 })
})

test('the Pusher HTTP API refuses an unsealed event, or one sealed for several channels, on a private-encrypted- channel', async (t) => {
  const rt = await rtApp(t, { app_id: 'kiln' })
  const { socket, id } = await rt.connect()
  await join(socket, id, CHANNEL)
  const sdk = new PusherSdk({ appId: 'kiln', key: KEY, secret: 'rt-secret', host: '127.0.0.1', port: new URL(rt.url).port, useTLS: false })
  // Raw API calls: the SDK itself would not send these.
  const post = async (body: object) => {
    // The SDK JSON-encodes `body` itself (its typings say string).
    const response = await sdk.post({ path: '/events', body: body as unknown as string })
    return { status: response.status, body: await response.text() }
  }
  const post400 = async (body: object) => post(body).catch((error: { status: number; body: string }) => error)
  const plain = await post400({ name: 'Leak', data: JSON.stringify({ pin: 1234 }), channels: [CHANNEL] })
  t.is(plain.status, 400)
  t.regex(JSON.parse(plain.body).message, /must be \{nonce, ciphertext\} sealed by the publisher/)
  const sealed = JSON.stringify({ nonce: 'bm9uY2U=', ciphertext: 'Y2lwaGVy' })
  const shared = await post400({ name: 'Leak', data: sealed, channels: [CHANNEL, 'news'] })
  t.is(shared.status, 400)
  t.true(await socket.nothing((frame) => frame.event === 'Leak'))
})

test('a message in clear on a private-encrypted- channel, from a publisher that did not seal it, is dropped by rt', async (t) => {
  const {
    url,
    nodes: [rt],
  } = await rtCluster(t, { nodes: 1 })
  const { socket, id } = await rt!.connect()
  await join(socket, id, CHANNEL)
  const publisher = new Redis(url)
  t.teardown(() => publisher.disconnect())
  await publisher.publish(`cluster:${CHANNEL}`, JSON.stringify({ event: 'Leak', data: { pin: 1234 }, socket: null }))
  await rt!.broadcaster.broadcast({ channels: [CHANNEL], event: 'Sealed', payload: { pin: 1 } })
  await socket.event('Sealed', CHANNEL)
  t.false(socket.frames.some((frame) => frame.event === 'Leak'))
  t.true(logLines(rt!).some((line) => /dropped an unencrypted message/.test(line.msg)))
})
