import test from 'ava'
import { channelAuth } from '../../../../plugins/broadcasting/index.ts'
import { join, rtApp, type Frame } from './rt-fixtures.ts'

/** mulberry32: a seeded generator, so a failure replays with the same frames. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

function frameGenerator(next: () => number) {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]
  const text = (n: number) => Array.from({ length: n }, () => String.fromCharCode(Math.floor(next() * 0xffff))).join('')
  const channel = () => pick(['news', 'private-a', 'presence-b', 'private-encrypted-c', '', 'x'.repeat(300), 'bad name', '__proto__', 'constructor'])
  const value = (): unknown =>
    pick([null, 1, -1e308, 'str', true, [], {}, JSON.parse('{"__proto__":1}'), text(5), [[[[[]]]]], { constructor: { prototype: {} } }])
  return (socketId: string): string | Buffer => {
    switch (Math.floor(next() * 12)) {
      case 0:
        return text(Math.floor(next() * 40))
      case 1:
        return Buffer.from(Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256)))
      case 2:
        return JSON.stringify({
          event: pick(['subscribe', 'unsubscribe', 'ping', 'client-x', 'svc:pong', 'pusher:subscribe', '__proto__']),
          data: value(),
          channel: value(),
        })
      case 3:
        return JSON.stringify({
          event: 'subscribe',
          data: {
            channel: channel(),
            auth: pick([value(), `rt-key:${text(64)}`, channelAuth('rt-key', 'rt-secret', socketId, 'private-a')]),
            channel_data: pick([value(), '{"user_id":"__proto__"}', '{"user_id":1}']),
          },
        })
      case 4:
        return JSON.stringify({ event: 'unsubscribe', data: { channel: channel() } })
      case 5:
        return JSON.stringify({ event: `client-${text(3)}`, channel: channel(), data: value() })
      case 6:
        return JSON.stringify({ event: 'ping', data: 'x'.repeat(Math.floor(next() * 20_000)) })
      case 7:
        return '{"event":"subscribe","data":' + '{"a":'.repeat(500) + '1' + '}'.repeat(500) + '}'
      case 8:
        return JSON.stringify(value())
      case 9:
        return '{"event":"ping","data":{}}'.slice(0, Math.floor(next() * 26))
      case 10:
        return JSON.stringify({
          event: 'subscribe',
          data: { channel: 'presence-b', auth: channelAuth('rt-key', 'rt-secret', socketId, 'presence-b', '{"user_id":7}'), channel_data: '{"user_id":7}' },
        })
      default:
        return JSON.stringify({ event: 'client-typing', channel: 'presence-b', data: { text: text(10) } })
    }
  }
}

test('fuzz: 3,000 malformed, huge, unknown and out-of-order frames leave the server up, answering, with no unhandled error', async (t) => {
  const failures: unknown[] = []
  const onError = (error: unknown) => failures.push(error)
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  t.teardown(() => {
    process.off('uncaughtException', onError)
    process.off('unhandledRejection', onError)
  })
  const rt = await rtApp(t, { client_events: true, max_frame_bytes: 10_000 })
  const next = random(SEED)
  const generate = frameGenerator(next)
  const clients = await Promise.all(Array.from({ length: 5 }, () => rt.connect()))
  const seen: Frame[] = []
  let sent = 0
  while (sent < 3000) {
    for (const [index, client] of clients.entries()) {
      if (client.socket.raw.readyState !== client.socket.raw.OPEN) {
        seen.push(...client.socket.frames)
        clients[index] = await rt.connect()
        continue
      }
      client.socket.raw.send(generate(client.id))
      sent++
    }
    if (sent % 500 < clients.length) {
      // A transport-level monster (over the 1 MiB cap) now and then.
      const monster = await rt.connect()
      monster.socket.raw.send('x'.repeat(1_100_000))
      t.is((await monster.socket.closed).code, 1009)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100))
  for (const client of clients) {
    seen.push(...client.socket.frames)
    client.socket.raw.terminate()
  }
  const codes = new Set(seen.filter((frame) => frame.event === 'svc:error').map((frame) => frame.data.code))
  t.true(codes.has(4300) && codes.has(4303) && codes.has(4009), `the fuzz reached the error paths: ${[...codes]}`)
  t.false(codes.has(4310), 'no frame hit an internal failure')

  const probe = await rt.connect()
  const peer = await rt.connect()
  t.is((await join(probe.socket, probe.id, 'news')).event, 'svc:subscription_succeeded')
  await rt.broadcaster.broadcast({ channels: ['news'], event: 'StillUp', payload: { ok: true } })
  t.deepEqual((await probe.socket.event('StillUp')).data, { ok: true })
  const health = await fetch(`${rt.url}/missing`)
  t.is(health.status, 404, 'HTTP still answers')
  t.true((await join(peer.socket, peer.id, 'presence-b', { user_id: 9 })).data.members.some((m: { user_id: number }) => m.user_id === 9))
  t.deepEqual(failures, [], `seed ${SEED}`)
})
