import test from 'ava'
import { TestClient } from '../../../core/testing/index.ts'
import { compApp, counterFiles, page, update, next, type PageSnapshot } from './comp-fixtures.ts'

/**
 * A component that checks who is asking in mount() and then trusts its
 * locked field in actions: the pattern the docs recommend, which a replayed
 * snapshot must not be able to turn against its owner.
 */
const ownerFiles = {
  ...counterFiles,
  'app/components/note.ts': `import { Component, locked } from 'kiln-framework/comp'
export default class Note extends Component {
  @locked() owner = ''
  title = ''
  renamed = ''
  mount() { this.owner = String(this.ctx.session?.get('name') ?? '') }
  rename(title: string) { this.renamed = this.owner + ':' + title }
}
`,
  'resources/views/components/note.hbs': '<div>{{owner}} {{renamed}}</div>',
  'resources/views/note.hbs': "{{!< layouts/app}}\n@comp('note')",
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/', () => view('home', { title: 'Home' }))
  Route.get('/note', () => view('note', { title: 'Note' }))
  Route.get('/as/{name}', ({ session, params }) => { session!.put('name', params.name); return { ok: true } })
  Route.post('/relogin', async ({ session }) => { await session!.regenerate(); session!.regenerateToken(); return { ok: true } })
  Route.post('/logout', async ({ session }) => { await session!.invalidate(); return { ok: true } })
})
`,
}

const csrf = (client: TestClient) => ({ 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' })

test("a snapshot replayed from another visitor's session, or from a session that never saw it, is refused with 419 E_COMP_EXPIRED and runs nothing", async (t) => {
  const { app, client: alice } = await compApp(t, ownerFiles)
  await alice.get('/as/alice')
  const mine = await page(alice, '/note')
  const own = await update(alice, mine.endpoint, mine.snapshot, { calls: [{ method: 'rename', params: ['x'] }] })
  t.is(own.status, 200)
  t.is(((await own.json()) as { serverMemo: PageSnapshot['serverMemo'] }).serverMemo.data.renamed, 'alice:x')

  // Bob is logged in as himself, with his own page, token and address.
  const bob = new TestClient(app)
  await bob.get('/as/bob')
  const his = await page(bob, '/note')
  const replayed = await update(bob, his.endpoint, mine.snapshot, { calls: [{ method: 'rename', params: ['pwned'] }] })
  t.is(replayed.status, 419)
  const body = (await replayed.json()) as { message: string; code: string; serverMemo?: unknown }
  t.is(body.code, 'E_COMP_EXPIRED')
  t.regex(body.message, /another session/)
  t.is(body.serverMemo, undefined)

  // A visitor who never logged in: only a session, from any page.
  const anonymous = new TestClient(app)
  const home = await page(anonymous, '/')
  t.is((await update(anonymous, home.endpoint, mine.snapshot, { calls: [{ method: 'rename', params: ['pwned'] }] })).status, 419)
})

test('an update address is tied to its session: another session using it is refused, even with its own snapshot', async (t) => {
  const { app, client: alice } = await compApp(t, ownerFiles)
  const hers = await page(alice, '/')
  const bob = new TestClient(app)
  const his = await page(bob, '/')
  const res = await update(bob, hers.endpoint, his.snapshot, { calls: [{ method: 'increment' }] })
  t.is(res.status, 419)
  t.regex(((await res.json()) as { message: string }).message, /address belongs to another session/)
  t.is((await update(bob, his.endpoint, his.snapshot, { calls: [{ method: 'increment' }] })).status, 200)
})

test('a login or a logout ends the snapshots issued before it', async (t) => {
  const { client } = await compApp(t, ownerFiles)
  const before = await page(client, '/')
  t.is((await client.post('/relogin', {}, { accept: 'application/json', ...csrf(client) })).status, 200)
  const afterLogin = await update(client, before.endpoint, before.snapshot, { calls: [{ method: 'increment' }] })
  t.is(afterLogin.status, 419)
  t.is(((await afterLogin.json()) as { code: string }).code, 'E_COMP_EXPIRED')

  const fresh = await page(client, '/')
  t.is((await update(client, fresh.endpoint, fresh.snapshot, { calls: [{ method: 'increment' }] })).status, 200)
  t.is((await client.post('/logout', {}, { accept: 'application/json', ...csrf(client) })).status, 200)
  await client.get('/')
  t.is((await update(client, fresh.endpoint, fresh.snapshot, { calls: [{ method: 'increment' }] })).status, 419)
})

test('a snapshot past comp.snapshot_ttl_minutes is refused; each update issues a fresh one, so a page in use lives on', async (t) => {
  // 0.05 minutes: 3 s, so the three updates below each come well within it even on a loaded machine.
  const { client } = await compApp(t, counterFiles, { comp: { snapshot_ttl_minutes: 0.05 } })
  let { endpoint, snapshot } = await page(client, '/')
  t.true(typeof snapshot.serverMemo.expires === 'number')
  for (let i = 0; i < 3; i++) {
    const res = await update(client, endpoint, snapshot, { calls: [{ method: 'increment' }] })
    t.is(res.status, 200)
    const body = (await res.json()) as { serverMemo: PageSnapshot['serverMemo']; effects: { endpoint: string } }
    snapshot = next(snapshot, body)
    endpoint = body.effects.endpoint
  }
  const old = snapshot
  const deadline = old.serverMemo.expires as number
  while (Date.now() <= deadline + 5) await new Promise((resolve) => setTimeout(resolve, 20))
  const res = await update(client, endpoint, old, { calls: [{ method: 'increment' }] })
  t.is(res.status, 419)
  t.regex(((await res.json()) as { message: string }).message, /expired/)
})

test('the session tag and lifetime are covered by the checksum: changing them is tampering (403)', async (t) => {
  const { app, client } = await compApp(t, counterFiles)
  const { endpoint, snapshot } = await page(client, '/')
  const other = new TestClient(app)
  const theirs = await page(other, '/')
  const moved = { ...snapshot, serverMemo: { ...snapshot.serverMemo, session: theirs.snapshot.serverMemo.session } }
  t.is((await update(other, theirs.endpoint, moved)).status, 403)
  const longer = { ...snapshot, serverMemo: { ...snapshot.serverMemo, expires: (snapshot.serverMemo.expires as number) + 86_400 } }
  t.is((await update(client, endpoint, longer)).status, 403)
})

test('a component rendered outside a session (no web group) says so when updated, instead of failing silently', async (t) => {
  const { app, client } = await compApp(t, {
    ...counterFiles,
    'routes/api.ts':
      "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/bare', () => view('home', { title: 'Bare' })) })\n",
  })
  const bare = await client.get('/bare', { accept: 'text/html' })
  const { snapshots } = await import('./comp-fixtures.ts')
  const snapshot = snapshots(await bare.text())[0]!
  t.is(snapshot.serverMemo.session, '-')
  const { endpoint } = await page(client, '/')
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'increment' }] })
  t.is(res.status, 419)
  t.regex(((await res.json()) as { message: string }).message, /outside a session/)
  t.truthy(app)
})
