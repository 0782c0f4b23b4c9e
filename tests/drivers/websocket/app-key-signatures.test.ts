import { createHmac } from 'node:crypto'
import test from 'ava'
import { generateAppKey } from '../../../core/index.ts'
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
