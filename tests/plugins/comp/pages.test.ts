import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import test from 'ava'
import { runCli } from '../../../core/index.ts'
import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, next, page, snapshots, update, counterFiles } from './comp-fixtures.ts'

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

const pageFiles = {
  ...counterFiles,
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
import Counter from '../app/components/counter.ts'
export default defineRoutes((Route) => {
  Route.get('/', () => view('home', { title: 'Home' }))
  Route.comp('/counter', Counter)
  Route.comp('/counter/{start}', 'counter', { title: 'Counter page' })
  Route.get('/bare', () => view('bare'))
})
`,
  'resources/views/bare.hbs': "<html><head><title>Bare</title></head><body>@comp('counter')</body></html>",
}

test('Route.comp serves a full-page component in the layout; route parameters reach mount() and same-named properties', async (t) => {
  const { client } = await compApp(t, pageFiles)
  const res = await client.get('/counter', { accept: 'text/html' })
  const html = await res.text()
  t.regex(html, /^<!doctype html><html><head><title><\/title><meta name="comp-endpoint"/)
  t.regex(html, /<body><div wire:id="\w+" wire:name="counter" wire:snapshot="[^"]+" class="counter"><span>0<\/span>/)
  const withParam = await (await client.get('/counter/7', { accept: 'text/html' })).text()
  t.regex(withParam, /<title>Counter page<\/title>/)
  t.deepEqual(snapshots(withParam)[0]!.serverMemo.data, { count: 0, step: 1 }, 'the route parameter is text, so mount() left count alone')
})

test('inject_assets: a page that rendered components but has no @compScripts gets them before </head>; turned off, it does not', async (t) => {
  const { client } = await compApp(t, pageFiles)
  const html = await (await client.get('/bare', { accept: 'text/html' })).text()
  t.regex(html, /<title>Bare<\/title><meta name="comp-endpoint" content="[^"]+">\n<meta name="comp-base" content="">[\s\S]*<\/script>\n<\/head>/)
  t.is(html.match(/comp-endpoint/g)!.length, 1)
  const off = await compApp(t, pageFiles, { comp: { inject_assets: false } })
  t.false((await (await off.client.get('/bare', { accept: 'text/html' })).text()).includes('comp-endpoint'))
  const once = await (await client.get('/', { accept: 'text/html' })).text()
  t.is(once.match(/comp-endpoint/g)!.length, 1, 'a layout with @compScripts gets them once')
})

test('APP_BASE_PATH: every browser URL carries the prefix and the signature still verifies', async (t) => {
  const { client } = await compApp(t, pageFiles, {}, { APP_BASE_PATH: '/sub' })
  const { html, snapshot, endpoint } = await page(client, '/sub/')
  t.regex(html, /<meta name="comp-base" content="\/sub">/)
  t.true(endpoint.startsWith('/sub/comp/update?'))
  t.regex(html, /"asset":"\/sub\/comp\/comp\.js\?v=/)
  t.regex(html, /data-fallback="\/sub\/comp\/alpine\.js\?v=/)
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'increment' }] })
  t.is(res.status, 200)
  t.true((await res.json()).effects.endpoint.startsWith('/sub/comp/update?'))
})

test('GET /comp/comp.js: the built client, immutable when its content hash is asked for, revalidated otherwise; Kiln serves Alpine too', async (t) => {
  const { app, client } = await compApp(t, pageFiles)
  const hashed = await app.assets.versionedUrl('/comp/comp.js')
  const res = await client.get(hashed)
  t.is(res.status, 200)
  t.regex(res.header('content-type')!, /javascript/)
  t.is(res.header('cache-control'), 'public, max-age=31536000, immutable')
  t.true((await res.text()).length > 100)
  t.is((await client.get('/comp/comp.js')).header('cache-control'), 'public, max-age=0, must-revalidate')
  t.is((await client.get('/comp/comp.js', { 'if-none-match': res.header('etag')! })).status, 304)
  for (const path of ['/comp/alpine.js', '/comp/alpine-csp.js']) {
    const alpine = await client.get(path)
    t.is(alpine.status, 200, path)
    t.regex(await alpine.text(), /Alpine/)
  }
})

test('csp_safe: no inline script, the config as JSON, and the CSP build of Alpine', async (t) => {
  const { client } = await compApp(t, pageFiles, { comp: { csp_safe: true, reactive_cdn: null } })
  const html = await (await client.get('/', { accept: 'text/html' })).text()
  t.false(html.includes('window.__COMP__'))
  t.regex(html, /<script type="application\/json" id="comp-config">\{"base":""/)
  t.regex(html, /<script src="\/comp\/alpine-csp\.js\?v=[\w-]+" defer data-comp-reactive><\/script>/)
})

test('uploads: $upload answers a signed address; files are checked and kept; the reference becomes a TemporaryUploadedFile; store() moves it', async (t) => {
  const files = {
    ...counterFiles,
    'app/components/avatar.ts': `import { Component, TemporaryUploadedFile, upload, uploadRule } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Avatar extends Component {
  static rules = z.object({ photo: uploadRule({ maxKb: 1, mimes: ['image/*'] }) })
  @upload({ maxKb: 1, mimes: ['image/*'] }) photo: TemporaryUploadedFile | null = null
  saved = ''
  async save() {
    this.validate()
    this.saved = await this.photo!.store('avatars')
    this.photo = null
  }
  render() { return '<div>{{#if photo}}{{photo.name}}{{/if}} {{saved}}</div>' }
}
`,
    'resources/views/avatar.hbs': "{{!< layouts/app}}\n@comp('avatar')",
    'routes/web.ts': "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/avatar', () => view('avatar')) })\n",
  }
  const { app, client } = await compApp(t, files, { comp: { uploads: { store: 'tmp', max_kb: 2, mimes: ['image/*', 'text/plain'], max_age_minutes: 60 } }, storage: { default: 'local', stores: { local: { driver: 'fs', base: 'storage/app' }, tmp: { driver: 'fs', base: 'storage/tmp' } } } })
  const { snapshot: avatar, endpoint } = await page(client, '/avatar')

  // Refused by the property's rules before anything is sent: a validation error on the property, not a failed request.
  const tooBig = await update(client, endpoint, avatar, { calls: [{ method: '$upload', params: ['photo', [{ name: 'big.png', type: 'image/png', size: 10_000 }]] }] })
  t.is(tooBig.status, 200)
  t.deepEqual((await tooBig.json()).effects.errors, { photo: ['The file "big.png" may not be larger than 1 KB.'] })
  const wrongType = await update(client, endpoint, avatar, { calls: [{ method: '$upload', params: ['photo', [{ name: 'a.exe', type: 'application/x-msdownload', size: 10 }]] }] })
  t.deepEqual((await wrongType.json()).effects.errors, { photo: ['The file "a.exe" must be one of: image/*.'] })
  const started = await (await update(client, endpoint, avatar, { calls: [{ method: '$upload', params: ['photo', [{ name: 'me.png', type: 'image/png', size: PNG.length }]] }] })).json()
  t.is(started.effects.upload.property, 'photo')
  t.regex(started.effects.upload.url, /^\/comp\/upload\?.*&expires=\d+&signature=[a-f0-9]{64}$/)

  const form = new FormData()
  form.append('files', new Blob([PNG], { type: 'image/png' }), 'me.png')
  const uploaded = await client.post(started.effects.upload.url, form, { 'x-csrf-token': client.cookie('XSRF-TOKEN')!, accept: 'application/json' })
  t.is(uploaded.status, 200)
  const { references, files: described } = await uploaded.json()
  t.deepEqual(described, [{ name: 'me.png', type: 'image/png', size: PNG.length }])
  t.regex(references[0], /^comp-upload:[\w-]{22}:[a-f0-9]{64}$/)
  t.is((await client.post('/comp/upload', form, { 'x-csrf-token': client.cookie('XSRF-TOKEN')!, accept: 'application/json' })).status, 403, 'the upload address must be signed')

  const set = await (await update(client, started.effects.endpoint, next(avatar, started), { updates: [['photo', references[0]]] })).json()
  t.regex(set.effects.html, /me\.png/)
  t.deepEqual(set.serverMemo.types, [[['photo'], { t: 'upload' }]])
  const forged = await update(client, set.effects.endpoint, next(avatar, set), { updates: [['photo', references[0].replace(/.$/, (c: string) => (c === '0' ? '1' : '0'))]] })
  t.is(forged.status, 403, 'a reference not signed here is refused')
  const saved = await (await update(client, set.effects.endpoint, next(avatar, set), { calls: [{ method: 'save' }] })).json()
  t.regex(saved.serverMemo.data.saved, /^avatars\/[\w-]+\.png$/)
  t.deepEqual(readFileSync(join(app.root, 'storage/app', saved.serverMemo.data.saved)), PNG)
  t.false(existsSync(join(app.root, 'storage/tmp/comp-uploads', references[0].split(':')[1])), 'the temporary file is gone')
})

test('pagination: WithPagination pages a model query, keeps ?page= in the URL, and renders links that call gotoPage', async (t) => {
  const files = {
    'database/migrations/0001_items.ts': `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('items').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute() }
export async function down(db) { await db.schema.dropTable('items').execute() }
`,
    'app/models/item.ts': "import { Model } from 'kiln-framework'\nexport class Item extends Model { static table = 'items'; static fillable = ['name']; declare name: string }\n",
    'app/components/item-list.ts': `import { view } from 'kiln-framework'
import { Component, WithPagination } from 'kiln-framework/comp'
import { Item } from '../models/item.ts'
export default class ItemList extends WithPagination(Component) {
  async render() { return view('components/item-list', { items: await this.paginate(Item.query().orderBy('id'), 2) }) }
}
`,
    'resources/views/components/item-list.hbs': '<div><ul>{{#each items.data}}<li>{{name}}</li>{{/each}}</ul>{{{paginationLinks items}}}</div>',
    'resources/views/list.hbs': "{{!< layouts/app}}\n@comp('item-list')",
    'routes/web.ts': "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/list', () => view('list')) })\n",
  }
  const { app, client } = await compApp(t, files)
  await refreshDatabase(app)
  const { runWithApp } = await import('../../../core/index.ts')
  const { Item } = await import(join(app.root, 'app/models/item.ts'))
  await runWithApp(app, async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await Item.create({ name })
  })
  const first = await (await client.get('/list?page=2', { accept: 'text/html' })).text()
  t.regex(first, /<li>c<\/li><li>d<\/li>/, '?page=2 from the URL')
  t.regex(first, /<button type="button" wire:click="gotoPage\(2\)" aria-current="page">2<\/button>/)
  const snapshot = snapshots(first)[0]!
  const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(first)![1]!.replace(/&amp;/g, '&')
  const third = await (await update(client, endpoint, snapshot, { calls: [{ method: 'gotoPage', params: [3] }] })).json()
  t.regex(third.effects.html, /<li>e<\/li><\/ul>/)
  t.deepEqual(third.effects.queryString, { page: 3 })
  const back = await (await update(client, third.effects.endpoint, next(snapshot, third), { calls: [{ method: 'gotoPage', params: [1] }] })).json()
  t.deepEqual(back.effects.queryString, { page: null }, 'page 1 leaves the URL')
  const beyond = await (await update(client, back.effects.endpoint, next(snapshot, back), { calls: [{ method: 'gotoPage', params: [99] }] })).json()
  t.is(beyond.serverMemo.data.page, 3, 'a page past the end shows the last one')
})

test('kiln make:comp writes a component and its view that render', async (t) => {
  const { app } = await compApp(t, { 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nimport { comp } from 'kiln-framework/comp'\nexport default defineConfig({ plugins: [comp()] })\n" })
  let out = ''
  const stdout = new Writable({ write: (chunk, _e, done) => ((out += String(chunk)), done()) })
  t.is(await runCli(['make:comp', 'Admin/UserTable'], { cwd: app.root, env: { APP_ENV: 'test' }, stdout, stderr: stdout }), 0, out)
  t.regex(out, /Created app\/components\/admin\/user-table\.ts/)
  t.regex(readFileSync(join(app.root, 'app/components/admin/user-table.ts'), 'utf8'), /export default class UserTable extends Component/)
  t.true(existsSync(join(app.root, 'resources/views/components/admin/user-table.hbs')))
  t.is(await runCli(['make:comp', 'Admin/UserTable'], { cwd: app.root, env: { APP_ENV: 'test' }, stdout, stderr: stdout }), 1, 'refuses to overwrite')
  t.is(await runCli(['make:comp', 'bad-name'], { cwd: app.root, env: { APP_ENV: 'test' }, stdout, stderr: stdout }), 1)
  const { createApp } = await import('../../../core/index.ts')
  const fresh = await createApp({ root: app.root, env: { APP_ENV: 'test' }, config: { session: { driver: 'memory' } } })
  t.teardown(() => fresh.close())
  const { html } = await fresh.service<{ mount(n: string): Promise<{ html: string }> }>('comp').mount('admin.user-table')
  t.regex(html, /wire:name="admin\.user-table"[^>]*>\n  <p>UserTable: <span wire:text="count">0<\/span>/)
})
