import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp, runWithApp } from '../../../core/index.ts'
import { flushBroadcasts, PrivateChannel, ShouldBroadcast } from '../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class Pinged extends ShouldBroadcast {
  constructor(public n: number) {
    super()
  }
  broadcastOn() {
    return [new PrivateChannel('pings')]
  }
}

test('a custom driver, written and wired the way an app does it (a plugin in config/app.ts, a connection in config/broadcasting.ts)', async (t) => {
  const root = tempApp({
    'app/broadcasters/file-broadcaster.ts': `import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineBroadcastDriver, SigningBroadcaster } from 'kiln-framework/broadcasting'

class FileBroadcaster extends SigningBroadcaster {
  constructor(name, config, appKey, root) { super(name, config, appKey); this.root = root }
  async broadcast({ channels, event, payload }) {
    appendFileSync(join(this.root, this.config.file), JSON.stringify({ channels, event, payload }) + '\\n')
  }
}
export const DRIVER_NAME = 'file'
export default defineBroadcastDriver({ name: DRIVER_NAME, create: (app, { name, config, appKey }) => new FileBroadcaster(name, config, appKey, app.root) })
`,
    'config/app.ts': `import { defineConfig } from 'kiln-framework'
import { broadcasting } from 'kiln-framework/broadcasting'
import fileDriver from '../app/broadcasters/file-broadcaster.ts'
export default defineConfig({ env: 'test', plugins: [broadcasting(), fileDriver] })
`,
    'config/broadcasting.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig(({ env }) => ({ default: env.get('BROADCAST_CONNECTION', 'audit'), connections: { audit: { driver: 'file', file: 'broadcasts.jsonl' } } }))
`,
  })
  const app = await createApp({ root })
  t.teardown(() => app.close())
  await runWithApp(app, async () => {
    await Pinged.dispatch(1)
    await Pinged.dispatch(2)
    await flushBroadcasts()
  })
  const lines = readFileSync(join(root, 'broadcasts.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  t.deepEqual(lines, [
    { channels: ['private-pings'], event: 'Pinged', payload: { n: 1, socket: null } },
    { channels: ['private-pings'], event: 'Pinged', payload: { n: 2, socket: null } },
  ])
})
