import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const HIDE = fileURLToPath(new URL('../../fixtures/hide-packages.mjs', import.meta.url))

/** Boots an app in a child process where `hidden` packages are not installed; resolves to its exit code and output. */
async function boot(env: Record<string, string>, hidden: string[], plugins = '', config: Record<string, unknown> = {}) {
  const root = tempApp()
  const script = join(root, 'boot.ts')
  writeFileSync(
    script,
    `import { createApp } from 'kiln-framework'
${plugins}
try {
  const app = await createApp({ root: ${JSON.stringify(root)}, env: ${JSON.stringify({ APP_ENV: 'test', ...env })}${plugins ? `, config: { ...${JSON.stringify(config)}, app: { plugins } } }` : ' }'})
  await app.close()
  console.log('booted')
} catch (error) {
  console.error(error.message)
  process.exitCode = 1
}
`,
  )
  return promisify(execFile)(process.execPath, ['--conditions=kiln-source', '--import=tsx', `--import=${HIDE}`, script], {
    cwd: ROOT,
    env: { ...process.env, HIDE_PACKAGES: hidden.join(',') },
  })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }))
}

test('an app that selects no Redis, PostgreSQL, BullMQ or Pusher driver boots without those packages', async (t) => {
  const result = await boot({}, ['ioredis', 'pg', 'bullmq', 'pusher'])
  t.is(result.code, 0, result.stderr)
  t.regex(result.stdout, /booted/)
})

test('selecting a driver whose package is missing stops boot with the package and its install command', async (t) => {
  const cases: Array<[Record<string, string>, string, RegExp]> = [
    [{ SESSION_DRIVER: 'redis' }, 'ioredis', /The "redis" session store needs the package "ioredis", which is not installed\. Install it: npm install ioredis/],
    [{ DB_CONNECTION: 'pgsql' }, 'pg', /The database connection "pgsql" needs the package "pg".*npm install pg/],
    [{ QUEUE_CONNECTION: 'redis' }, 'bullmq', /The queue connection "redis" needs the package "bullmq".*npm install bullmq/],
  ]
  for (const [env, hidden, message] of cases) {
    const result = await boot(env, [hidden])
    t.is(result.code, 1, `${hidden}: ${result.stdout}`)
    t.regex(result.stderr, message)
    // The same app boots when the package is there.
    if (hidden !== 'pg') t.is((await boot(env, [])).code, 0)
  }
})

test('broadcast drivers check their package at boot: kv and rt scaling need ioredis, hosted needs pusher', async (t) => {
  const imports = `import { broadcasting } from 'kiln-framework/broadcasting'
import kvDriver from 'kiln-framework/drivers/kv'
import hostedDriver from 'kiln-framework/drivers/hosted'
import websocketDriver from 'kiln-framework/drivers/websocket'
const plugins = [broadcasting(), kvDriver, hostedDriver, websocketDriver]`
  const config = {
    broadcasting: {
      connections: {
        kv: { driver: 'kv', url: 'redis://127.0.0.1:6379', prefix: 'optional:' },
        hosted: { driver: 'hosted', app_id: '1', key: 'k', secret: 's', cluster: 'mt1' },
        rt: { driver: 'rt', key: 'rt-key', secret: 'rt-secret', scaling: { enabled: true, url: 'redis://127.0.0.1:6379', prefix: 'optional:' } },
      },
    },
  }
  const kv = await boot({ BROADCAST_CONNECTION: 'kv' }, ['ioredis'], imports, config)
  t.is(kv.code, 1, kv.stdout)
  t.regex(kv.stderr, /The kv broadcast connection "kv" needs the package "ioredis"/)
  const hosted = await boot({ BROADCAST_CONNECTION: 'hosted' }, ['pusher'], imports, config)
  t.is(hosted.code, 1, hosted.stdout)
  t.regex(hosted.stderr, /The hosted broadcast connection "hosted" needs the package "pusher".*npm install pusher/)
  const rt = await boot({ BROADCAST_CONNECTION: 'rt' }, ['ioredis'], imports, config)
  t.is(rt.code, 1, rt.stdout)
  t.regex(rt.stderr, /Scaling the broadcast connection "rt" across processes needs the package "ioredis"/)
  t.is((await boot({ BROADCAST_CONNECTION: 'kv' }, [], imports, config)).code, 0)
})
