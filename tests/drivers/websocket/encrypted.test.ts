import test from 'ava'
import PusherJs from 'pusher-js'
import type * as PusherTypes from 'pusher-js/types/src/core/pusher.js'
import { decryptPayload } from '../../../plugins/broadcasting/index.ts'
import { join, KEY, rtApp } from './rt-fixtures.ts'

const Pusher = PusherJs as unknown as new (key: string, options: object) => PusherTypes.default
const MASTER_KEY = Buffer.alloc(32, 9).toString('base64')
const CHANNEL = 'private-encrypted-vault.1'

test('rt: a private-encrypted- channel carries only {nonce, ciphertext}; pusher-js opens it with the shared secret from /broadcasting/auth', async (t) => {
  const rt = await rtApp(t, { encryption_master_key: MASTER_KEY })
  const client = new Pusher(KEY, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: Number(new URL(rt.url).port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }: { socketId: string; channelName: string }, callback: (error: Error | null, data: unknown) => void) =>
        callback(null, rt.broadcaster.signChannel(socketId, channelName)),
    },
  })
  t.teardown(() => client.disconnect())
  await new Promise<void>((resolve) => client.connection.bind('connected', () => resolve()))
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
