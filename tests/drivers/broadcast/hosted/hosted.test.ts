import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import test from 'ava'
import Pusher from 'pusher'
import { createApp } from '../../../../core/index.ts'
import hostedDriver, { DRIVER_NAME, HostedBroadcaster } from '../../../../drivers/broadcast/hosted/index.ts'
import { broadcast, broadcasting, Channel, ShouldBroadcastNow } from '../../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { testBroadcaster } from '../../../contracts/broadcaster.contract.ts'
import { freePort } from '../../../fixtures/redis-server.ts'
import { API, MemoryHub, pusherApiServer } from './pusher-api-fixtures.ts'

type T = { teardown(fn: () => unknown): void }

// The hosted service is a real Kiln app serving Kiln's Pusher HTTP API on a listening server, over an in-memory hub.
const hub = new MemoryHub()
// And an API that answers every request with HTTP 500, for the contract's delivery failure.
const broken = createServer((_request, response) => response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}'))
const [api] = await Promise.all([pusherApiServer(hub), new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve))])
test.after.always(() => {
  broken.close()
  return api.close()
})

const hostedConfig = { app_id: API.appId, key: API.key, secret: API.secret, host: '127.0.0.1', port: api.port, scheme: 'http' }

// The contract, observed through what the Pusher API passed on to its hub (one trigger per channel batch).
testBroadcaster(DRIVER_NAME, {
  plugins: [hostedDriver],
  connection: hostedConfig,
  observe: async () => {
    const start = hub.published.length
    return () =>
      hub.published
        .slice(start)
        .flatMap(({ channels, event, data, except }) =>
          channels.map((channel) => ({ channel, event, data: JSON.parse(String(data)), raw: String(data), except: except ?? null })),
        )
  },
  can: { deliver: true, toOthers: 'marked', encrypt: true },
  unreachable: {
    connection: { port: (broken.address() as AddressInfo).port },
    error: /^Broadcast connection "main" \(hosted\) could not trigger \[.+\] on 127\.0\.0\.1:\d+ \(HTTP 500/,
  },
  badConfig: {
    connection: { app_id: '', key: '', secret: undefined },
    error: /^config\/broadcasting\.ts connections\.main \(hosted\): app_id: empty \(set PUSHER_APP_ID\)/,
  },
})

async function hostedApp(t: T, overrides: Record<string, unknown> = {}) {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), hostedDriver],
    config: { broadcasting: { default: 'hosted', connections: { hosted: { driver: 'hosted', ...hostedConfig, ...overrides } } } },
  })
  t.teardown(() => app.close())
  return { app, hosted: app.service('broadcast').connection() as HostedBroadcaster }
}

const sentAs = (event: string) => hub.published.filter((p) => p.event === event)

class ParcelSent extends ShouldBroadcastNow {
  constructor(public id: number) {
    super()
  }
  broadcastOn() {
    return [new Channel('parcels')]
  }
}

test('a broadcast with a socket left out (toOthers) reaches the API as JSON data with the socket_id', async (t) => {
  const { app, hosted } = await hostedApp(t)
  app.router.post('/send', async ({ request }) => {
    // toOthers() honours only a socket the requester authenticated (tests/plugins/broadcasting/socket-id.test.ts): set it here.
    const event = new ParcelSent(3)
    event.socket = request.header('x-socket-id')
    await broadcast(event)
    return { ok: true }
  })
  t.is((await app.request('/send', { method: 'POST', headers: { 'x-socket-id': '77.88' } })).status, 200)
  const [sent] = sentAs('ParcelSent')
  t.deepEqual(sent, { channels: ['parcels'], event: 'ParcelSent', data: JSON.stringify({ socket: '77.88', id: 3 }), except: '77.88' })
  t.true((await hosted.getInstance()) instanceof Pusher, 'getInstance() is the pusher SDK client')
})

test('250 channels go out in three API calls of at most 100', async (t) => {
  const { hosted } = await hostedApp(t)
  const channels = Array.from({ length: 250 }, (_, i) => `bulk-${i}`)
  await hosted.broadcast({ channels, event: 'Bulk', payload: { n: 1 } })
  const calls = sentAs('Bulk')
  t.deepEqual(
    calls.map((call) => call.channels.length),
    [100, 100, 50],
  )
  t.deepEqual(
    calls.flatMap((call) => call.channels),
    channels,
  )
})

test('each encrypted channel is triggered alone, encrypted with the shared secret /broadcasting/auth hands out', async (t) => {
  const masterKey = randomBytes(32).toString('base64')
  const { hosted } = await hostedApp(t, { encryption_master_key: masterKey })
  await hosted.broadcast({ channels: ['news', 'private-encrypted-a', 'sports', 'private-encrypted-b'], event: 'Secret', payload: { pin: 1234 } })
  const calls = sentAs('Secret')
  t.deepEqual(
    calls.map((call) => call.channels),
    [['news', 'sports'], ['private-encrypted-a'], ['private-encrypted-b']],
  )
  const encrypted = JSON.parse(calls[1]!.data as string)
  t.deepEqual(Object.keys(encrypted).sort(), ['ciphertext', 'nonce'])
  t.notRegex(calls[1]!.data as string, /1234/)
  // channelSharedSecret is the SDK's own (untyped) derivation, the one it encrypted the data with.
  const sdk = (await hosted.getInstance()) as Pusher & { channelSharedSecret(channel: string): Buffer }
  const { shared_secret: fromAuth } = hosted.signChannel('1.2', 'private-encrypted-a')
  t.deepEqual(Buffer.from(fromAuth!, 'base64'), sdk.channelSharedSecret('private-encrypted-a'))
})

test('an API error (wrong secret → 401) becomes a clear exception naming the connection and status, without the secret', async (t) => {
  const { hosted } = await hostedApp(t, { secret: 'wrong-secret' })
  const error = await t.throwsAsync(hosted.broadcast({ channels: ['news'], event: 'Refused', payload: {} }))
  t.regex(
    error!.message,
    new RegExp(
      `^Broadcast connection "hosted" \\(hosted\\) could not trigger \\[Refused\\] on 127\\.0\\.0\\.1:${api.port} \\(HTTP 401: .*Invalid auth_signature`,
    ),
  )
  t.notRegex(error!.message, /wrong-secret|app-secret/)
  t.deepEqual(sentAs('Refused'), [])
})

test('a failure part-way says how many channels were already sent', async (t) => {
  const { hosted } = await hostedApp(t)
  const channels = [...Array.from({ length: 100 }, (_, i) => `part-${i}`), 'not a channel']
  const error = await t.throwsAsync(hosted.broadcast({ channels, event: 'Partial', payload: {} }))
  t.regex(error!.message, /could not trigger \[Partial\].*Invalid channel name.*; 100 of 101 channels were sent\)\.$/)
  t.is(sentAs('Partial').length, 1)
})

test('an unreachable API becomes a clear exception', async (t) => {
  const { hosted } = await hostedApp(t, { port: await freePort() })
  const error = await t.throwsAsync(hosted.broadcast({ channels: ['news'], event: 'Lost', payload: {} }))
  t.regex(error!.message, /^Broadcast connection "hosted" \(hosted\) could not trigger \[Lost\] on 127\.0\.0\.1:\d+ \(unreachable: ECONNREFUSED\)\.$/)
})

test('an active hosted connection without its PUSHER_* settings stops the boot, naming each missing variable', async (t) => {
  const boot = createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), hostedDriver],
    config: { broadcasting: { default: 'hosted', connections: { hosted: { driver: 'hosted', app_id: '', cluster: 'eu' } } } },
  })
  const error = await t.throwsAsync(boot)
  t.is(
    error!.message,
    'config/broadcasting.ts connections.hosted (hosted): app_id: empty (set PUSHER_APP_ID); key: missing (set PUSHER_APP_KEY); secret: missing (set PUSHER_APP_SECRET).',
  )
})
