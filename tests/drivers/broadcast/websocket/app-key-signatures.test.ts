import { createHmac } from 'node:crypto'
import test from 'ava'
import Pusher from 'pusher'
import { generateAppKey } from '../../../../core/index.ts'
import { join, KEY, rtApp } from './rt-fixtures.ts'

const APP_KEY = generateAppKey()
const PREVIOUS = generateAppKey()
const hmac = (secret: string, subject: string) => createHmac('sha256', secret).update(subject).digest('hex')

test('with no connection secret, channel signatures are keyed by APP_KEY itself, so any server holding APP_KEY verifies them', async (t) => {
  const rt = await rtApp(t, { secret: undefined }, { env: { APP_KEY } })
  const signed = rt.broadcaster.signChannel('123.456', 'private-orders.1')
  t.is(signed.auth, `${KEY}:${hmac(APP_KEY, '123.456:private-orders.1')}`)
  const presenceData = JSON.stringify({ user_id: 1 })
  t.is(rt.broadcaster.signChannel('1.2', 'presence-chat', presenceData).auth, `${KEY}:${hmac(APP_KEY, `1.2:presence-chat:${presenceData}`)}`)
  // And the rt server accepts a signature a separate process made with nothing but APP_KEY.
  const { socket, id } = await rt.connect()
  socket.send({ event: 'subscribe', data: { channel: 'private-orders.1', auth: `${KEY}:${hmac(APP_KEY, `${id}:private-orders.1`)}` } })
  t.is((await socket.next((f) => f.channel === 'private-orders.1')).event, 'svc:subscription_succeeded')
})

test('during a key rotation, signatures made with APP_PREVIOUS_KEYS still verify; any other key is refused', async (t) => {
  const rt = await rtApp(t, { secret: undefined }, { env: { APP_KEY, APP_PREVIOUS_KEYS: `${generateAppKey()}, ${PREVIOUS}` } })
  const { socket, id } = await rt.connect()
  const old = await join(socket, id, 'private-orders.2', undefined, { key: KEY, secret: PREVIOUS })
  t.is(old.event, 'svc:subscription_succeeded')
  const stranger = await join(socket, id, 'private-orders.3', undefined, { key: KEY, secret: generateAppKey() })
  t.is(stranger.event, 'svc:error')
  // New signatures use the current key only.
  t.is(rt.broadcaster.signChannel(id, 'private-orders.4').auth, `${KEY}:${hmac(APP_KEY, `${id}:private-orders.4`)}`)
})

test('a blank connection secret counts as none: signatures are keyed by APP_KEY, never by an empty key', async (t) => {
  const rt = await rtApp(t, { secret: '' }, { env: { APP_KEY } })
  t.is(rt.broadcaster.signChannel('123.456', 'private-orders.1').auth, `${KEY}:${hmac(APP_KEY, '123.456:private-orders.1')}`)
  const { socket, id } = await rt.connect()
  const forged = await join(socket, id, 'private-orders.1', undefined, { key: KEY, secret: '' })
  t.is(forged.event, 'svc:error', 'a signature made with an empty secret is refused')
})

test('during a key rotation, the Pusher HTTP API also accepts calls signed with a previous APP_KEY', async (t) => {
  const rt = await rtApp(t, { secret: undefined, app_id: 'kiln' }, { env: { APP_KEY, APP_PREVIOUS_KEYS: PREVIOUS } })
  const port = new URL(rt.url).port
  const sdk = (secret: string) => new Pusher({ appId: 'kiln', key: KEY, secret, host: '127.0.0.1', port, useTLS: false })
  t.is((await sdk(PREVIOUS).trigger('news', 'Published', { id: 1 })).status, 200)
  t.is((await sdk(APP_KEY).trigger('news', 'Published', { id: 2 })).status, 200)
  const refused = await sdk(generateAppKey())
    .trigger('news', 'Published', { id: 3 })
    .catch((error: { status: number }) => error)
  t.is((refused as { status: number }).status, 401)
})
