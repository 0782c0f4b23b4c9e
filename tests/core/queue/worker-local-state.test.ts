import { randomBytes } from 'node:crypto'
import test from 'ava'
import { generateAppKey } from '../../../core/index.ts'
import { kilnWorker } from '../../fixtures/kiln-worker.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const app = (cacheDriver: string) =>
  tempApp({
    'config/storage.ts': `import { defineStorageConfig } from 'kiln-framework'
export default defineStorageConfig({ stores: { local: { driver: 'fs', base: 'storage/app' }, cache: { driver: '${cacheDriver}', url: '${REDIS_URL}' } } })
`,
    'config/queue.ts': `import { defineQueueConfig } from 'kiln-framework'
export default defineQueueConfig({ default: 'redis' })
`,
    'config/http.ts': `import { defineHttpConfig } from 'kiln-framework'
export default defineHttpConfig({ throttle_store: 'cache' })
`,
  })

test('queue:work says at start which state it keeps in its own process (what its jobs write there, the web processes never see), and is quiet when it shares everything', async (t) => {
  const env = { APP_ENV: 'test', APP_KEY: generateAppKey(), APP_NAME: `worker-state-${randomBytes(4).toString('hex')}` }
  const alone = await kilnWorker(t, app('memory'), env)
  t.regex(alone.output(), /This worker is a process of its own, and these are kept in each process/)
  t.regex(alone.output(), /the cache store \(config\/storage\.ts `stores\.cache`, memory\): .*CACHE_STORE=redis/)
  t.is(await alone.stop(), 0)

  const shared = await kilnWorker(t, app('redis'), env)
  t.notRegex(shared.output(), /process of its own/)
  t.is(await shared.stop(), 0)
})
