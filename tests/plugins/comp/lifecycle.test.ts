import test from 'ava'
import { compApp, page, snapshots, update } from './comp-fixtures.ts'
import { call, featureApp } from './feature-app.ts'
import { kernelFiles } from './kernel-files.ts'

test('models, lists of models, dates and bigints round-trip typed; a model travels as class and key only, no column of it', async (t) => {
  const { client } = await featureApp(t, kernelFiles)
  const { html, snapshot, endpoint } = await page(client, '/page/note-card')
  t.is(snapshot.serverMemo.data.note, 1)
  t.deepEqual(snapshot.serverMemo.data.notes, [1, 2])
  t.notRegex(JSON.stringify(snapshot), /First|Second|hunter2/, 'neither a visible nor a hidden column is in the snapshot')
  t.regex(html, /First 2/, 'the view still renders the model')
  t.is(snapshot.serverMemo.data.seenAt, '2026-01-02T03:04:05.000Z')
  t.is(snapshot.serverMemo.data.size, '12')
  t.deepEqual(snapshot.serverMemo.types, [
    [['note'], { t: 'model', class: 'Note', key: 1 }],
    [['notes'], { t: 'models', class: 'Note', keys: [1, 2] }],
    [['seenAt'], { t: 'date' }],
    [['size'], { t: 'bigint' }],
  ])
  const touched = await call(client, endpoint, snapshot, { calls: [{ method: 'touch' }] })
  t.is(touched.serverMemo.data.seenAt, '2026-01-02T03:04:06.000Z')
  t.is(touched.serverMemo.data.size, '13')
  t.is(touched.serverMemo.data.note, 1)
  t.regex(touched.effects.html, /First!/, 'the model was loaded again by its key and rendered')
  const refused = await update(client, endpoint, snapshot, { updates: [['note.title', 'hacked']] })
  t.is(refused.status, 403, 'a model cannot be written from the browser')
  t.is((await update(client, endpoint, snapshot, { updates: [['seenAt', 'not a date']] })).status, 422)
})

test('nested components: children render once; later parent renders keep them as empty keyed placeholders', async (t) => {
  const { client } = await featureApp(t, kernelFiles)
  const { html, snapshot, endpoint } = await page(client, '/page/parent-list')
  const all = snapshots(html)
  t.deepEqual(
    all.map((s) => s.fingerprint.name),
    ['parent-list', 'child-item', 'child-item'],
  )
  const children = snapshot.serverMemo.children
  t.deepEqual(Object.keys(children), ['a', 'b'])
  t.is(children.a.id, all[1]!.fingerprint.id)
  t.is(children.a.tag, 'span')
  const added = await call(client, endpoint, snapshot, { calls: [{ method: 'addRow' }] })
  t.regex(
    added.effects.html,
    new RegExp(
      `<li><span wire:id="${children.a.id}"></span></li><li><span wire:id="${children.b.id}"></span></li><li><span wire:id="\\w+" wire:name="child-item" wire:snapshot="[^"]+">child c</span></li>`,
    ),
  )
  t.deepEqual(Object.keys(added.serverMemo.children), ['a', 'b', 'c'])
})

test('a component rendering two root elements is a clear error at render time', async (t) => {
  const { client } = await featureApp(t, kernelFiles, { APP_DEBUG: 'true' })
  const res = await client.get('/page/two-roots', { accept: 'application/json' })
  t.is(res.status, 500)
  t.regex((await res.json()).stack.join('\n'), /The component "two-roots" must render exactly one root element; it rendered 2 root elements/)
})

test('payload guards: too many calls or updates 422, a body over the limit 413, malformed shapes 422; never a 500', async (t) => {
  const { client } = await compApp(t, kernelFiles, { comp: { limits: { max_calls: 3, max_updates: 3, max_payload_bytes: 10_000 } } })
  const { snapshot, endpoint } = await page(client, '/page/search')
  t.is((await update(client, endpoint, snapshot, { calls: Array(4).fill({ method: '$refresh' }) })).status, 422)
  t.is((await update(client, endpoint, snapshot, { updates: Array(4).fill(['q', 'x']) })).status, 422)
  t.is((await update(client, endpoint, snapshot, { updates: [['q', 'x'.repeat(20_000)]] })).status, 413)
  for (const body of [
    [],
    'x',
    { fingerprint: 1 },
    { fingerprint: snapshot.fingerprint },
    { fingerprint: snapshot.fingerprint, serverMemo: { data: [], checksum: 'x' } },
  ]) {
    const res = await client.json('POST', endpoint, body, { 'x-csrf-token': client.cookie('XSRF-TOKEN')! })
    t.true(res.status >= 400 && res.status < 500, `${JSON.stringify(body)}: ${res.status}`)
  }
})
