import test from 'ava'
import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, next, page, snapshots, update, type PageSnapshot } from './comp-fixtures.ts'
import { featureFiles } from './feature-files.ts'

async function app(t: Parameters<typeof compApp>[0], env: Record<string, string> = {}) {
  const made = await compApp(t, featureFiles, {}, env)
  await refreshDatabase(made.app)
  return made
}

async function call(client: Awaited<ReturnType<typeof app>>['client'], endpoint: string, snapshot: PageSnapshot, body: Parameters<typeof update>[3]) {
  const res = await update(client, endpoint, snapshot, body)
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(json)}`)
  return json
}

test('validation: errors in effects.errors and the view; the calls stop; success clears them; validateOnly checks one field', async (t) => {
  const { client } = await app(t)
  const { snapshot, endpoint } = await page(client, '/page/todo-form')
  const failed = await call(client, endpoint, snapshot, { updates: [['title', 'ab']], calls: [{ method: 'save' }] })
  t.deepEqual(failed.effects.errors, { title: ['The title must be at least 3 characters.'] })
  t.deepEqual(failed.serverMemo.errors, failed.effects.errors)
  t.regex(failed.effects.html, /<p class="error">The title must be at least 3 characters\.<\/p>/)
  t.deepEqual(failed.serverMemo.data.items, [], 'save() stopped at validate()')
  t.deepEqual(failed.effects.dispatches, [])
  const ok = await call(client, failed.effects.endpoint, next(snapshot, failed), { updates: [['title', 'Buy milk']], calls: [{ method: 'save' }] })
  t.deepEqual(ok.effects.errors, {})
  t.deepEqual(ok.serverMemo.data.items, ['Buy milk'])
  t.is(ok.serverMemo.data.title, '', 'reset() put the title back')
  t.deepEqual(ok.effects.dispatches, [{ name: 'todo-added', params: { title: 'Buy milk' } }])
  t.regex(ok.effects.html, /1 left/, 'the computed property renders')
  t.false('remaining' in ok.serverMemo.data, 'computed properties are not in the snapshot')
  const only = await call(client, ok.effects.endpoint, next(snapshot, ok), { updates: [['title', 'x']], calls: [{ method: 'checkTitle' }] })
  t.deepEqual(Object.keys(only.effects.errors), ['title'])
})

test('locked properties refuse updates with 403; listeners run on $event, and only for the events they declare', async (t) => {
  const { client } = await app(t)
  const { snapshot, endpoint } = await page(client, '/page/todo-form')
  t.deepEqual(snapshot.serverMemo.listeners, ['clear-all'])
  const locked = await update(client, endpoint, snapshot, { updates: [['ownerId', 8]] })
  t.is(locked.status, 403)
  t.regex((await locked.json()).message, /locked/)
  const filled = await call(client, endpoint, snapshot, { updates: [['title', 'One more']], calls: [{ method: 'save' }] })
  const cleared = await call(client, filled.effects.endpoint, next(snapshot, filled), { calls: [{ method: '$event', params: ['clear-all', {}] }] })
  t.deepEqual(cleared.serverMemo.data.items, [])
  t.is((await update(client, cleared.effects.endpoint, next(snapshot, cleared), { calls: [{ method: '$event', params: ['other', {}] }] })).status, 403)
  t.is((await update(client, cleared.effects.endpoint, next(snapshot, cleared), { calls: [{ method: 'clearAll' }] })).status, 200, 'a listener is also a public method')
})

test('$set and $toggle update through the same checks; $refresh re-renders', async (t) => {
  const { client } = await app(t)
  const { snapshot, endpoint } = await page(client, '/page/todo-form')
  const set = await call(client, endpoint, snapshot, { calls: [{ method: '$set', params: ['priority', '3'] }] })
  t.is(set.serverMemo.data.priority, 3)
  t.is((await update(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: '$set', params: ['ownerId', 1] }] })).status, 403)
  t.is((await update(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: '$toggle', params: ['title'] }] })).status, 422, 'a toggle on text is a type change')
  const refreshed = await call(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: '$refresh' }] })
  t.truthy(refreshed.effects.html)
})

test('query string: initial values read from the URL (typed), and effects.queryString with null for defaults', async (t) => {
  const { client } = await app(t)
  const res = await client.get('/page/search?q=shoes&sort=desc&limit=99', { accept: 'text/html' })
  const html = await res.text()
  t.regex(html, /shoes\/desc\/10/, 'q and sort come from the URL; limit is not bound to it')
  const [snapshot] = snapshots(html)
  const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(html)![1]!.replace(/&amp;/g, '&')
  const changed = await call(client, endpoint, snapshot!, { updates: [['q', 'boots'], ['sort', 'asc']] })
  t.deepEqual(changed.effects.queryString, { q: 'boots', sort: null })
})

test('models, lists of models, dates and bigints round-trip typed; a model travels as class and key only, no column of it', async (t) => {
  const { client } = await app(t)
  const { html, snapshot, endpoint } = await page(client, '/page/note-card')
  t.is(snapshot.serverMemo.data.note, 1)
  t.deepEqual(snapshot.serverMemo.data.notes, [1, 2])
  t.notRegex(JSON.stringify(snapshot), /First|Second|hunter2/, 'neither a visible nor a hidden column is in the snapshot')
  t.regex(html, /First 2/, 'the view still renders the model')
  t.is(snapshot.serverMemo.data.seenAt, '2026-01-02T03:04:05.000Z')
  t.is(snapshot.serverMemo.data.size, '12')
  t.deepEqual(snapshot.serverMemo.types, [[['note'], { t: 'model', class: 'Note', key: 1 }], [['notes'], { t: 'models', class: 'Note', keys: [1, 2] }], [['seenAt'], { t: 'date' }], [['size'], { t: 'bigint' }]])
  const touched = await call(client, endpoint, snapshot, { calls: [{ method: 'touch' }] })
  t.is(touched.serverMemo.data.seenAt, '2026-01-02T03:04:06.000Z')
  t.is(touched.serverMemo.data.size, '13')
  t.is(touched.serverMemo.data.note, 1)
  t.regex(touched.effects.html, /First!/, 'the model was loaded again by its key and rendered')
  const refused = await update(client, endpoint, snapshot, { updates: [['note.title', 'hacked']] })
  t.is(refused.status, 403, 'a model cannot be written from the browser')
  t.is((await update(client, endpoint, snapshot, { updates: [['seenAt', 'not a date']] })).status, 422)
})

test('islands: {{island}} renders inside the component; an island request renders only that island', async (t) => {
  const { client } = await app(t)
  const { html, snapshot, endpoint } = await page(client, '/page/dashboard')
  t.regex(html, /<section wire:id="\w+" wire:name="dashboard" wire:snapshot="[^"]+"><h2>Dashboard<\/h2><div wire:island="stats"><b>1 visits<\/b><\/div><\/section>/)
  const island = await call(client, endpoint, snapshot, { calls: [{ method: 'refreshStats' }], island: 'stats' })
  t.deepEqual(island.effects.islands, { stats: '<b>2 visits</b>' })
  t.false('html' in island.effects)
  t.is((await update(client, endpoint, snapshot, { island: 'nope' })).status, 500 - 78, 'an unknown island is 422')
})

test('lazy and deferred components render a placeholder; $load mounts them with the kept parameters; other calls wait for it', async (t) => {
  const { client } = await app(t)
  const res = await client.get('/page/lazy-card', { accept: 'text/html' })
  const html = await res.text()
  t.regex(html, /<div wire:id="\w+" wire:name="lazy-card" wire:snapshot="[^"]+" class="placeholder">Loading…<\/div>/)
  const [snapshot] = snapshots(html)
  t.deepEqual(snapshot!.serverMemo.lazy, { mode: 'lazy', params: {}, types: [] })
  const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(html)![1]!.replace(/&amp;/g, '&')
  t.is((await update(client, endpoint, snapshot!, { calls: [{ method: '$refresh' }] })).status, 422)
  const loaded = await call(client, endpoint, snapshot!, { calls: [{ method: '$load' }] })
  t.regex(loaded.effects.html, /<article wire:id="\w+" wire:name="lazy-card">none 1<\/article>/)
  t.false('lazy' in loaded.serverMemo)
  const deferred = await page(client, '/page/deferred-card')
  t.is(deferred.snapshot.serverMemo.lazy.mode, 'defer')
  t.regex(deferred.html, /<div wire:id="\w+" wire:name="deferred-card" wire:snapshot="[^"]+"><\/div>/)
})

test('nested components: children render once; later parent renders keep them as empty keyed placeholders', async (t) => {
  const { client } = await app(t)
  const { html, snapshot, endpoint } = await page(client, '/page/parent-list')
  const all = snapshots(html)
  t.deepEqual(all.map((s) => s.fingerprint.name), ['parent-list', 'child-item', 'child-item'])
  const children = snapshot.serverMemo.children
  t.deepEqual(Object.keys(children), ['a', 'b'])
  t.is(children.a.id, all[1]!.fingerprint.id)
  t.is(children.a.tag, 'span')
  const added = await call(client, endpoint, snapshot, { calls: [{ method: 'addRow' }] })
  t.regex(added.effects.html, new RegExp(`<li><span wire:id="${children.a.id}"></span></li><li><span wire:id="${children.b.id}"></span></li><li><span wire:id="\\w+" wire:name="child-item" wire:snapshot="[^"]+">child c</span></li>`))
  t.deepEqual(Object.keys(added.serverMemo.children), ['a', 'b', 'c'])
})

test('$js actions live in the memo; js() and redirect() become effects; renderless() skips the HTML', async (t) => {
  const { client } = await app(t)
  const { snapshot, endpoint } = await page(client, '/page/js-actions')
  t.deepEqual(snapshot.serverMemo.js, { clear: "$wire.query = ''" })
  t.is((await update(client, endpoint, snapshot, { calls: [{ method: 'clear' }] })).status, 403, 'a @js action is not a server method')
  const notified = await call(client, endpoint, snapshot, { calls: [{ method: 'notify' }] })
  t.deepEqual(notified.effects.js, ["console.log('saved')"])
  t.is(notified.effects.redirect, '/done')
  const quiet = await call(client, endpoint, snapshot, { calls: [{ method: 'quiet' }] })
  t.false('html' in quiet.effects)
  const flagged = await call(client, endpoint, snapshot, { calls: [{ method: '$refresh' }], renderless: true })
  t.false('html' in flagged.effects)
})

test('a component rendering two root elements is a clear error at render time', async (t) => {
  const { client } = await app(t, { APP_DEBUG: 'true' })
  const res = await client.get('/page/two-roots', { accept: 'application/json' })
  t.is(res.status, 500)
  t.regex((await res.json()).stack.join('\n'), /The component "two-roots" must render exactly one root element; it rendered 2 root elements/)
})

test('payload guards: too many calls or updates 422, a body over the limit 413, malformed shapes 422; never a 500', async (t) => {
  const { client } = await compApp(t, featureFiles, { comp: { limits: { max_calls: 3, max_updates: 3, max_payload_bytes: 10_000 } } })
  const { snapshot, endpoint } = await page(client, '/page/search')
  t.is((await update(client, endpoint, snapshot, { calls: Array(4).fill({ method: '$refresh' }) })).status, 422)
  t.is((await update(client, endpoint, snapshot, { updates: Array(4).fill(['q', 'x']) })).status, 422)
  t.is((await update(client, endpoint, snapshot, { updates: [['q', 'x'.repeat(20_000)]] })).status, 413)
  for (const body of [[], 'x', { fingerprint: 1 }, { fingerprint: snapshot.fingerprint }, { fingerprint: snapshot.fingerprint, serverMemo: { data: [], checksum: 'x' } }]) {
    const res = await client.json('POST', endpoint, body, { 'x-csrf-token': client.cookie('XSRF-TOKEN')! })
    t.true(res.status >= 400 && res.status < 500, `${JSON.stringify(body)}: ${res.status}`)
  }
})
