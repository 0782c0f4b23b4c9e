import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { TestClient } from '../../../../core/testing/index.ts'
import { compApp, counterFiles, next, page, update, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')

const files = {
  'app/components/counter.ts': `import { Component } from 'kiln-framework/comp'
export default class Counter extends Component { count = 0; increment() { this.count++ } }
`,
  'app/components/avatar.ts': `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Avatar extends Component {
  @upload({ mimes: ['image/png'] }) photo: TemporaryUploadedFile | null = null
  @upload({ mimes: ['image/png'], multiple: true }) gallery: TemporaryUploadedFile[] = []
  @upload({ mimes: ['text/plain'] }) notes: TemporaryUploadedFile | null = null
  @upload({ mimes: ['text/*'] }) loose: TemporaryUploadedFile | null = null
  @upload() anything: TemporaryUploadedFile | null = null
  caption = ''
  stored = ''
  async keep(property: 'photo' | 'notes' | 'anything') { this.stored = await this[property]!.store('kept'); this[property] = null }
}
`,
  'resources/views/components/counter.hbs': '<div><span>{{count}}</span></div>',
  'resources/views/components/avatar.hbs': '<div>{{#if photo}}{{photo.name}} {{photo.type}}{{/if}} {{stored}}</div>',
  'resources/views/counter.hbs': "{{!< layouts/app}}\n@comp('counter')",
  'resources/views/avatar.hbs': "{{!< layouts/app}}\n@comp('avatar')",
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/counter', () => view('counter'))
  Route.get('/avatar', () => view('avatar'))
})
`,
}

const storage = { default: 'local', stores: { local: { driver: 'fs', base: 'storage/app' }, tmp: { driver: 'fs', base: 'storage/tmp' } } }

async function setup(t: Parameters<typeof compApp>[0], uploads: Record<string, unknown> = {}) {
  const { app, client } = await compApp(t, files, { comp: { uploads: { store: 'tmp', ...uploads } }, storage })
  const visitor = async (path = '/avatar') => {
    const client = new TestClient(app)
    const { snapshot, endpoint } = await page(client, path)
    return { client, snapshot, endpoint }
  }
  const temporary = () => readdirSync(join(app.root, 'storage/tmp/comp-uploads'), { withFileTypes: true }).filter((entry) => entry.isFile()).length
  return { app, client, visitor, temporary }
}

type Described = { name: string; type: string; size: number }

async function start(client: TestClient, endpoint: string, snapshot: PageSnapshot, property: string, described: Described[]) {
  const res = await update(client, endpoint, snapshot, { calls: [{ method: '$upload', params: [property, described] }] })
  return { status: res.status, body: await res.json() }
}

function send(client: TestClient, url: string, parts: Array<{ bytes: Buffer; name: string; type: string }>) {
  const form = new FormData()
  for (const part of parts) form.append('files', new Blob([Uint8Array.from(part.bytes)], { type: part.type }), part.name)
  return client.post(url, form, { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '', accept: 'application/json' })
}

const png = (name = 'me.png') => ({ bytes: PNG, name, type: 'image/png' })
const describe = (part: { bytes: Buffer; name: string; type: string }): Described => ({ name: part.name, type: part.type, size: part.bytes.length })

test('only a property declared with @upload() takes files: $upload anywhere else is 403, on a public page too', async (t) => {
  const { visitor } = await setup(t)
  const counter = await visitor('/counter')
  const refused = await start(counter.client, counter.endpoint, counter.snapshot, 'count', [describe(png())])
  t.is(refused.status, 403)
  t.regex(refused.body.message, /Counter\.count takes no files: only a property declared with @upload\(\) does/)
  const avatar = await visitor()
  t.is((await start(avatar.client, avatar.endpoint, avatar.snapshot, 'caption', [describe(png())])).status, 403)
  t.is((await start(avatar.client, avatar.endpoint, avatar.snapshot, 'photo.name', [describe(png())])).status, 403, 'not a path into one either')
  t.is((await start(avatar.client, avatar.endpoint, avatar.snapshot, 'photo', [describe(png())])).status, 200)
  t.is(
    (await start(avatar.client, avatar.endpoint, avatar.snapshot, 'photo', [describe(png()), describe(png('b.png'))])).status,
    422,
    'one file for a single property',
  )
})

test('an upload address works once, for this session, for the files it was asked for', async (t) => {
  const { visitor, temporary } = await setup(t)
  const { client, snapshot, endpoint } = await visitor()
  const address = async (parts = [png()], property = 'photo') =>
    (await start(client, endpoint, snapshot, property, parts.map(describe))).body.effects.upload.url as string

  const stranger = await visitor()
  const stolen = await send(stranger.client, await address(), [png()])
  t.is(stolen.status, 403, 'another session')
  t.regex((await stolen.json()).message, /belongs to another session/)

  const url = await address()
  t.is((await send(client, url, [png()])).status, 200)
  const again = await send(client, url, [png()])
  t.is(again.status, 403, 'used already')
  t.regex((await again.json()).message, /used already/)

  t.is((await send(client, (await address()).replace('p=photo', 'p=gallery'), [png()])).status, 403, 'the property is part of the signature')
  t.is((await send(client, await address(), [png(), png('b.png')])).status, 422, 'more files than described')
  const small = { bytes: PNG.subarray(0, 40), name: 'small.png', type: 'image/png' }
  t.is((await send(client, await address([small]), [png()])).status, 422, 'more bytes than described')
  t.is(temporary(), 2, 'one upload kept: its file and its description')

  const many = await send(client, await address([png('a.png'), png('b.png')], 'gallery'), [png('a.png'), png('b.png')])
  t.is(many.status, 200)
  t.is((await many.json()).references.length, 2, 'a multiple property takes several at once')
})

test('an uploaded file belongs to the session that uploaded it: its reference is refused in another', async (t) => {
  const { visitor } = await setup(t)
  const owner = await visitor()
  const url = (await start(owner.client, owner.endpoint, owner.snapshot, 'photo', [describe(png())])).body.effects.upload.url
  const [reference] = (await (await send(owner.client, url, [png()])).json()).references
  const other = await visitor()
  t.is((await update(other.client, other.endpoint, other.snapshot, { updates: [['photo', reference]] })).status, 403)
  const set = await update(owner.client, owner.endpoint, owner.snapshot, { updates: [['photo', reference]] })
  t.is(set.status, 200)
  t.regex((await set.json()).effects.html, /me\.png image\/png/)
})

test('uploads.quota_mb per session and address_quota_mb per address: past them $upload is 429 with Retry-After', async (t) => {
  // 52 KB a session, 82 KB an address; each $upload below asks for 40 KB.
  const { visitor } = await setup(t, { quota_mb: 0.05, address_quota_mb: 0.08 })
  const big = { name: 'big.png', type: 'image/png', size: 40 * 1024 }
  const a = await visitor()
  t.is((await start(a.client, a.endpoint, a.snapshot, 'photo', [big])).status, 200)
  const second = await update(a.client, a.endpoint, a.snapshot, { calls: [{ method: '$upload', params: ['photo', [big]] }] })
  t.is(second.status, 429, "past the session's quota")
  t.regex((await second.json()).message, /Upload limit reached; try again in \d+ minutes/)
  t.regex(second.headers.get('retry-after') ?? '', /^\d+$/)
  const b = await visitor()
  t.is((await start(b.client, b.endpoint, b.snapshot, 'photo', [big])).status, 200, 'a new session has its own quota')
  const c = await visitor()
  t.is((await start(c.client, c.endpoint, c.snapshot, 'photo', [big])).status, 429, "past the address's quota, whatever the session")
})

test("a file's type is what its content shows: HTML sent as image/png is refused, a PNG named .html is stored as .png", async (t) => {
  const { visitor, temporary, app } = await setup(t)
  const { client, snapshot, endpoint } = await visitor()
  const upload = async (property: string, part: { bytes: Buffer; name: string; type: string }) => {
    const started = await start(client, endpoint, snapshot, property, [describe(part)])
    return send(client, started.body.effects.upload.url, [part])
  }
  const keep = async (property: string, reference: string) => {
    const set = await (await update(client, endpoint, snapshot, { updates: [[property, reference]] })).json()
    return (await (await update(client, set.effects.endpoint, next(snapshot, set), { calls: [{ method: 'keep', params: [property] }] })).json()).serverMemo.data
      .stored as string
  }

  const disguised = await upload('photo', { bytes: HTML, name: 'cat.png', type: 'image/png' })
  t.is(disguised.status, 422)
  t.deepEqual(await disguised.json(), {
    message: 'The content of "cat.png" is not one of: image/png.',
    errors: { photo: ['The content of "cat.png" is not one of: image/png.'] },
  })
  t.throws(() => temporary(), undefined, 'nothing of it was kept')

  const renamed = await upload('photo', { bytes: PNG, name: 'page.html', type: 'image/png' })
  const { references, files } = await renamed.json()
  t.deepEqual(files, [{ name: 'page.html', type: 'image/png', size: PNG.length }])
  const stored = await keep('photo', references[0])
  t.regex(stored, /^kept\/[\w-]+\.png$/, 'the extension comes from the content')
  t.deepEqual(readFileSync(join(app.root, 'storage/app', stored)), PNG)

  // Text has no signature: accepted only where a rule names text/plain (or text/csv) exactly, and only if it is text.
  const text = await upload('notes', { bytes: Buffer.from('milk, eggs'), name: 'list.html', type: 'text/plain' })
  t.is(text.status, 200)
  t.regex(await keep('notes', (await text.json()).references[0]), /^kept\/[\w-]+\.txt$/)
  t.is((await upload('notes', { bytes: Buffer.from([0x4d, 0x5a, 0, 0, 1, 2]), name: 'x.txt', type: 'text/plain' })).status, 422, 'binary is not text')
  t.is(
    (await upload('loose', { bytes: Buffer.from('<svg onload="alert(1)"/>'), name: 'x.txt', type: 'text/plain' })).status,
    422,
    'text/* is not an explicit text type',
  )

  // No rules: kept, but as opaque bytes with no extension, so a public disk never serves it as a page.
  const opaque = await upload('anything', { bytes: HTML, name: 'page.html', type: 'text/html' })
  t.deepEqual((await opaque.json()).files, [{ name: 'page.html', type: 'application/octet-stream', size: HTML.length }])
  t.regex(
    await keep('anything', (await (await upload('anything', { bytes: HTML, name: 'page.html', type: 'text/html' })).json()).references[0]),
    /^kept\/[\w-]+$/,
  )
})

test('the app-wide comp.uploads.max_kb and mimes bound every @upload() rule', async (t) => {
  const { visitor } = await setup(t, { max_kb: 1, mimes: ['image/*'] })
  const { client, snapshot, endpoint } = await visitor()
  const tooBig = await start(client, endpoint, snapshot, 'anything', [{ name: 'a.png', type: 'image/png', size: 2048 }])
  t.deepEqual(tooBig.body.effects.errors, { anything: ['The file "a.png" may not be larger than 1 KB.'] })
  t.false('upload' in tooBig.body.effects)
  const wrong = await start(client, endpoint, snapshot, 'anything', [{ name: 'a.pdf', type: 'application/pdf', size: 10 }])
  t.deepEqual(wrong.body.effects.errors, { anything: ['The file "a.pdf" must be one of: image/*.'] })
  const misfit = await start(client, endpoint, snapshot, 'notes', [{ name: 'a.txt', type: 'text/plain', size: 10 }])
  t.is(misfit.status, 403, 'a property whose types the app refuses altogether')
  t.regex(misfit.body.message, /comp\.uploads\.mimes/)
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
    'routes/web.ts':
      "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/avatar', () => view('avatar')) })\n",
  }
  const { app, client } = await compApp(t, files, {
    comp: { uploads: { store: 'tmp', max_kb: 2, mimes: ['image/*', 'text/plain'], max_age_minutes: 60 } },
    storage: { default: 'local', stores: { local: { driver: 'fs', base: 'storage/app' }, tmp: { driver: 'fs', base: 'storage/tmp' } } },
  })
  const { snapshot: avatar, endpoint } = await page(client, '/avatar')

  // Refused by the property's rules before anything is sent: a validation error on the property, not a failed request.
  const tooBig = await update(client, endpoint, avatar, {
    calls: [{ method: '$upload', params: ['photo', [{ name: 'big.png', type: 'image/png', size: 10_000 }]] }],
  })
  t.is(tooBig.status, 200)
  t.deepEqual((await tooBig.json()).effects.errors, { photo: ['The file "big.png" may not be larger than 1 KB.'] })
  const wrongType = await update(client, endpoint, avatar, {
    calls: [{ method: '$upload', params: ['photo', [{ name: 'a.exe', type: 'application/x-msdownload', size: 10 }]] }],
  })
  t.deepEqual((await wrongType.json()).effects.errors, { photo: ['The file "a.exe" must be one of: image/*.'] })
  const started = await (
    await update(client, endpoint, avatar, { calls: [{ method: '$upload', params: ['photo', [{ name: 'me.png', type: 'image/png', size: PNG.length }]] }] })
  ).json()
  t.is(started.effects.upload.property, 'photo')
  t.regex(started.effects.upload.url, /^\/comp\/upload\?.*&expires=\d+&signature=[a-f0-9]{64}$/)

  const form = new FormData()
  form.append('files', new Blob([PNG], { type: 'image/png' }), 'me.png')
  const uploaded = await client.post(started.effects.upload.url, form, { 'x-csrf-token': client.cookie('XSRF-TOKEN')!, accept: 'application/json' })
  t.is(uploaded.status, 200)
  const { references, files: described } = await uploaded.json()
  t.deepEqual(described, [{ name: 'me.png', type: 'image/png', size: PNG.length }])
  t.regex(references[0], /^comp-upload:[\w-]{22}:[a-f0-9]{64}$/)
  t.is(
    (await client.post('/comp/upload', form, { 'x-csrf-token': client.cookie('XSRF-TOKEN')!, accept: 'application/json' })).status,
    403,
    'the upload address must be signed',
  )

  const set = await (await update(client, started.effects.endpoint, next(avatar, started), { updates: [['photo', references[0]]] })).json()
  t.regex(set.effects.html, /me\.png/)
  t.deepEqual(set.serverMemo.types, [[['photo'], { t: 'upload' }]])
  const forged = await update(client, set.effects.endpoint, next(avatar, set), {
    updates: [['photo', references[0].replace(/.$/, (c: string) => (c === '0' ? '1' : '0'))]],
  })
  t.is(forged.status, 403, 'a reference not signed here is refused')
  const saved = await (await update(client, set.effects.endpoint, next(avatar, set), { calls: [{ method: 'save' }] })).json()
  t.regex(saved.serverMemo.data.saved, /^avatars\/[\w-]+\.png$/)
  t.deepEqual(readFileSync(join(app.root, 'storage/app', saved.serverMemo.data.saved)), PNG)
  t.false(existsSync(join(app.root, 'storage/tmp/comp-uploads', references[0].split(':')[1])), 'the temporary file is gone')
})
