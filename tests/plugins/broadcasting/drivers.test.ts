import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import logDriver from '../../../drivers/broadcast/log/index.ts'
import nullDriver from '../../../drivers/broadcast/null/index.ts'
import { defineBroadcastDriver, SigningBroadcaster, type BroadcastMessage } from '../../../plugins/broadcasting/index.ts'
import { logLines } from '../../contracts/broadcaster-app.ts'
import { testBroadcaster } from '../../contracts/broadcaster.contract.ts'

/** A driver written the way an application would write one. */
const received: BroadcastMessage[] = []
class MemoryBroadcaster extends SigningBroadcaster {
  async broadcast(message: BroadcastMessage) {
    received.push(message)
  }
}
const memoryDriver = defineBroadcastDriver({ name: 'memory-list', create: (_app, { name, config, appKey }) => new MemoryBroadcaster(name, config, appKey) })

// null: the contract watches the log and asserts nothing left the app; it has no transport for the other cases.
testBroadcaster('null', { plugins: [nullDriver], observe: async ({ app }) => logLines(app), can: { deliver: false, toOthers: false, encrypt: false } })
// log: the log lines are the transport; they carry no left-out socket and log encrypted channels' payloads in the clear.
testBroadcaster('log', { plugins: [logDriver], observe: async ({ app }) => logLines(app), can: { deliver: true, toOthers: false, encrypt: false } })
// A driver written the way an application would write one: the messages it was handed are what it delivered.
const wires = () =>
  received.flatMap(({ channels, event, payload, socket }) =>
    channels.map((channel) => ({ channel, event, data: payload, raw: JSON.stringify(payload), except: socket ?? null })),
  )
testBroadcaster('memory-list', { plugins: [memoryDriver], observe: async () => wires, can: { deliver: true, toOthers: 'marked', encrypt: false } })

test('log: writes the event, the channels and the pretty JSON payload to the log', async (t) => {
  const { createApp } = await import('../../../core/index.ts')
  const { tempApp } = await import('../../fixtures/temp-app.ts')
  const { broadcasting } = await import('../../../plugins/broadcasting/index.ts')
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), logDriver],
    config: { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/b.log' } } },
  })
  await app
    .service('broadcast')
    .connection('log')
    .broadcast({ channels: ['news', 'private-a'], event: 'Published', payload: { id: 7 } })
  await app.close()
  const line = JSON.parse(readFileSync(join(root, 'storage/logs/b.log'), 'utf8').trim())
  t.is(line.msg, 'Broadcasting [Published] on channels [news, private-a] with payload:\n{\n    "id": 7\n}')
})

test('BROADCAST_CONNECTION picks the active connection; log is the default for a new app', async (t) => {
  const { createApp } = await import('../../../core/index.ts')
  const { tempApp } = await import('../../fixtures/temp-app.ts')
  const { broadcasting } = await import('../../../plugins/broadcasting/index.ts')
  const fresh = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, plugins: [broadcasting(), logDriver, nullDriver] })
  const chosen = await createApp({ root: tempApp(), env: { APP_ENV: 'test', BROADCAST_CONNECTION: 'null' }, plugins: [broadcasting(), logDriver, nullDriver] })
  t.teardown(async () => {
    await fresh.close()
    await chosen.close()
  })
  t.is(fresh.service('broadcast').drivers.defaultConnection(), 'log')
  t.is(chosen.service('broadcast').drivers.defaultConnection(), 'null')
  t.true(chosen.service('broadcast').connection().constructor.name === 'NullBroadcaster')
})
