import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import test from 'ava'
import { createApp, runCli, sessionStore, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { seedSessions } from './seed-sessions.ts'

const sessionRoutes = `import { defineRoutes } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/touch', ({ session }) => { session.put('n', 1); return { ok: true } })
  Route.get('/id', ({ session }) => ({ id: session.id, token: session.token() }))
})
`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function sessionApp(
  t: { teardown(fn: () => unknown): void },
  session: Record<string, unknown>,
  root = tempApp({ 'routes/web.ts': sessionRoutes }),
): Promise<Application> {
  const app = await createApp({ root, env: { APP_ENV: 'test' }, config: { session } })
  t.teardown(() => app.close())
  return app
}

const sessionFiles = (root: string) => readdirSync(join(root, 'storage/framework/sessions')).filter((name) => !name.endsWith('.kiln-tmp'))

for (const driver of ['fs', 'memory']) {
  test(`${driver}: expired sessions are swept by the lottery; live ones stay`, async (t) => {
    // A lifetime of 0.04 minutes (2.4 s), far longer than five requests take on a loaded machine, and a lottery that always wins.
    const app = await sessionApp(t, { driver, lifetime: 0.04, lottery: [1, 1] })
    const store = app.service('session.stores').connection()
    for (let i = 0; i < 5; i++) await app.request('/touch')
    for (let i = 0; i < 20 && (await store.getKeys()).length < 5; i++) await sleep(20)
    t.is((await store.getKeys()).length, 5)
    await sleep(2600)
    await app.request('/touch')
    for (let i = 0; i < 20 && (await store.getKeys()).length > 1; i++) await sleep(50)
    t.is((await store.getKeys()).length, 1, 'only the session of the last request is left')
  })
}

test('a lottery of [0, 100] never sweeps; sessions past their lifetime do not load', async (t) => {
  const app = await sessionApp(t, { driver: 'fs', lifetime: 0.01, lottery: [0, 100] })
  const first = await app.request('/touch')
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  await sleep(900)
  await app.request('/touch')
  await sleep(100)
  t.is(sessionFiles(app.root).length, 2, 'nothing was swept')
  // The expired one is not loaded: the request gets a new session (a new id, so a third file).
  await app.request('/touch', { headers: { cookie } })
  t.is(sessionFiles(app.root).length, 3)
})

test('kiln session:gc removes expired sessions and says how many', async (t) => {
  const root = tempApp({
    'routes/web.ts': sessionRoutes,
    'config/session.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({ driver: 'fs', lifetime: 0.01, lottery: [0, 100] })\n",
  })
  const app = await sessionApp(t, {}, root)
  for (let i = 0; i < 3; i++) await app.request('/touch')
  await app.close()
  await sleep(900)
  let out = ''
  const stdout = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) })
  const code = await runCli(['session:gc'], { cwd: root, env: { APP_ENV: 'test' }, stdout, stderr: stdout })
  t.is(code, 0, out)
  t.regex(out, /Removed 3 expired sessions\./)
  t.deepEqual(sessionFiles(root), [])
})

for (const driver of ['fs', 'memory']) {
  test(`${driver}: each request that wins the lottery removes at most session.sweep_limit expired sessions, however many there are`, async (t) => {
    const app = await sessionApp(t, { driver, lottery: [1, 1], sweep_limit: 10 })
    await seedSessions(app, 0, 300)
    const held = () =>
      sessionStore(app)
        .getKeys()
        .then((keys) => keys.length)
    for (const left of [290, 280, 270]) {
      // A visitor without a cookie: its own session stores nothing.
      t.is((await app.request('/id')).status, 200)
      // The sweep runs after the response: wait for it to remove what it will.
      for (let i = 0; i < 400 && (await held()) > left; i++) await sleep(10)
      t.is(await held(), left)
    }
  })
}

for (const driver of ['fs', 'memory']) {
  test(`${driver}: a session that holds only its token lives as long as a stored one: its cookie replayed after the lifetime starts a new session`, async (t) => {
    // 3 s: long enough that the first two requests fit in it on a loaded machine.
    const app = await sessionApp(t, { driver, lifetime: 0.05, lottery: [0, 100] })
    const first = await app.request('/id')
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const { id } = await first.json()
    t.is((await (await app.request('/id', { headers: { cookie } })).json()).id, id)
    t.deepEqual(await sessionStore(app).getKeys(), [], 'nothing was stored')
    await sleep(3100)
    t.not((await (await app.request('/id', { headers: { cookie } })).json()).id, id, 'the cookie carries its expiry, so the id does not outlive it')
  })
}
