import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test from 'ava'

const KILN = realpathSync(fileURLToPath(new URL('../../../', import.meta.url)))
const TSX = import.meta.resolve('tsx')
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * Boots an app that lives outside the clone (as one made by `kiln new` does) and links Kiln from it, in a child
 * process. The clone's node_modules holds every optional package (they are its dev dependencies); the app holds
 * only those in `installed`, linked into its own node_modules. Resolves to the exit code and output.
 */
async function boot(
  t: { teardown(fn: () => void): void },
  env: Record<string, string>,
  installed: string[],
  options: { plugins?: string; config?: Record<string, unknown>; after?: string } = {},
) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kiln-outside-')))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'node_modules'))
  symlinkSync(KILN, join(root, 'node_modules', 'kiln-framework'), 'dir')
  for (const name of installed) symlinkSync(join(KILN, 'node_modules', name), join(root, 'node_modules', name), 'dir')
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'outside', private: true, type: 'module' }))
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { experimentalDecorators: true, allowImportingTsExtensions: true } }))
  const { plugins = '', config = {}, after = '' } = options
  writeFileSync(
    join(root, 'boot.ts'),
    `import { createApp } from 'kiln-framework'
${plugins}
try {
  const app = await createApp({ root: ${JSON.stringify(root)}, env: ${JSON.stringify({ APP_ENV: 'test', ...env })}${plugins ? `, config: { ...${JSON.stringify(config)}, app: { plugins } } }` : ' }'})
  try {
    ${after}
  } finally {
    await app.close()
  }
  console.log('booted')
} catch (error) {
  console.error(error.message)
  process.exitCode = 1
}
`,
  )
  return promisify(execFile)(process.execPath, ['--conditions=kiln-source', `--import=${TSX}`, 'boot.ts'], { cwd: root })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }))
}

test('an app that selects no Redis, PostgreSQL, BullMQ or Pusher driver boots without those packages', async (t) => {
  const result = await boot(t, {}, [])
  t.is(result.code, 0, result.stderr)
  t.regex(result.stdout, /booted/)
})

test("the PostgreSQL client comes from the app's own node_modules, never from the Kiln it links to", async (t) => {
  // The clone has pg (a dev dependency); an app without it must learn at boot, on the developer's machine.
  const missing = await boot(t, { DB_CONNECTION: 'pgsql', DATABASE_URL }, [])
  t.is(missing.code, 1, missing.stdout)
  t.regex(missing.stderr, /The database connection "pgsql" needs the package "pg", which is not installed\. Install it: npm install pg/)
  // Installed in the app, it boots and queries through it.
  const query = `const db = await app.service('db').kysely()
    const row = await db.selectNoFrom((eb) => eb.val(42).as('answer')).executeTakeFirstOrThrow()
    console.log('answer', row.answer)`
  const present = await boot(t, { DB_CONNECTION: 'pgsql', DATABASE_URL }, ['pg'], { after: query })
  t.is(present.code, 0, present.stderr)
  t.regex(present.stdout, /answer 42/)
})

test('selecting a driver whose package the app lacks stops boot with the package and its install command', async (t) => {
  const cases: Array<[Record<string, string>, string[], RegExp]> = [
    [
      { SESSION_DRIVER: 'redis' },
      ['ioredis'],
      /The "redis" session store needs the package "ioredis", which is not installed\. Install it: npm install ioredis/,
    ],
    [{ QUEUE_CONNECTION: 'redis' }, ['bullmq', 'ioredis'], /The queue connection "redis" needs the package "bullmq".*npm install bullmq/],
  ]
  for (const [env, packages, message] of cases) {
    const result = await boot(t, env, [])
    t.is(result.code, 1, `${packages.join()}: ${result.stdout}`)
    t.regex(result.stderr, message)
    // The same app boots once the packages are in its node_modules.
    const installed = await boot(t, env, packages)
    t.is(installed.code, 0, installed.stderr)
  }
})

test('broadcast drivers check their package at boot: kv and rt scaling need ioredis, hosted needs pusher', async (t) => {
  const plugins = `import { broadcasting } from 'kiln-framework/broadcasting'
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
  const kv = await boot(t, { BROADCAST_CONNECTION: 'kv' }, [], { plugins, config })
  t.is(kv.code, 1, kv.stdout)
  t.regex(kv.stderr, /The kv broadcast connection "kv" needs the package "ioredis"/)
  const hosted = await boot(t, { BROADCAST_CONNECTION: 'hosted' }, [], { plugins, config })
  t.is(hosted.code, 1, hosted.stdout)
  t.regex(hosted.stderr, /The hosted broadcast connection "hosted" needs the package "pusher".*npm install pusher/)
  const rt = await boot(t, { BROADCAST_CONNECTION: 'rt' }, [], { plugins, config })
  t.is(rt.code, 1, rt.stdout)
  t.regex(rt.stderr, /Scaling the broadcast connection "rt" across processes needs the package "ioredis"/)
  // With ioredis in the app, the kv connection publishes through it.
  const publish = `await app.service('broadcast').connection('kv').broadcast({ channels: ['news'], event: 'Hi', payload: {} })`
  const published = await boot(t, { BROADCAST_CONNECTION: 'kv' }, ['ioredis'], { plugins, config, after: publish })
  t.is(published.code, 0, published.stderr)
})
