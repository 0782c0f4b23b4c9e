import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { compApp, next, page, update, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import type { TestClient } from '../../../../core/testing/index.ts'

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

/** The types the starter app accepts (app-template/config/comp.ts). */
const STARTER_MIMES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/csv']

const files = {
  'app/components/avatar.ts': `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Avatar extends Component {
  @upload({ maxKb: 1024, mimes: ['image/*'] }) photo: TemporaryUploadedFile | null = null
  @upload({ mimes: ['application/pdf'], multiple: true, required: false }) papers: TemporaryUploadedFile[] = []
  @upload({ mimes: ['image/png'], multiple: true }) shots: TemporaryUploadedFile[] = []
  @upload({ mimes: ['video/*'], required: false }) clip: TemporaryUploadedFile | null = null
  path = ''
  async save() {
    const { photo } = this.validate()
    this.path = await photo.store('avatars')
    this.reset('photo')
  }
  check() { this.validateOnly('photo') }
  async keep() { this.validateOnly('photo'); this.path = await this.photo!.store('avatars') }
  render() { return '<div><p>{{path}}</p>{{#if photo}}<p>{{photo.name}}</p>{{/if}}<span class="error">{{error "photo"}}</span></div>' }
}
`,
  'resources/views/avatar.hbs': "{{!< layouts/app}}\n@comp('avatar')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/avatar', () => view('avatar')) })\n",
}

async function setup(t: Parameters<typeof compApp>[0]) {
  const { app, client } = await compApp(t, files, {
    comp: { uploads: { store: 'tmp', mimes: STARTER_MIMES } },
    storage: { default: 'local', stores: { local: { driver: 'fs', base: 'storage/app' }, tmp: { driver: 'fs', base: 'storage/tmp' } } },
  })
  const { snapshot, endpoint } = await page(client, '/avatar')
  return { app, client, snapshot, endpoint }
}

async function json(client: TestClient, endpoint: string, snapshot: PageSnapshot, body: Parameters<typeof update>[3]) {
  const res = await update(client, endpoint, snapshot, body)
  return { status: res.status, body: await res.json() }
}

/** Uploads the PNG into `photo` through $upload and the signed address; its reference. */
async function uploadPng(client: TestClient, endpoint: string, snapshot: PageSnapshot): Promise<string> {
  const started = await json(client, endpoint, snapshot, {
    calls: [{ method: '$upload', params: ['photo', [{ name: 'me.png', type: 'image/png', size: PNG.length }]] }],
  })
  const form = new FormData()
  form.append('files', new Blob([Uint8Array.from(PNG)], { type: 'image/png' }), 'me.png')
  const sent = await client.post(started.body.effects.upload.url, form, { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '', accept: 'application/json' })
  return (await sent.json()).references[0]
}

test('@upload() alone is the rule validate() and validateOnly() check: a file is required unless required: false', async (t) => {
  const { client, snapshot, endpoint } = await setup(t)
  const empty = await json(client, endpoint, snapshot, { calls: [{ method: 'save' }] })
  t.is(empty.status, 200)
  t.deepEqual(empty.body.effects.errors, { photo: ['Choose a file.'], shots: ['Choose a file.'] }, 'papers and clip say required: false')
  t.regex(empty.body.effects.html, /<span class="error">Choose a file\.<\/span>/)
  const only = await json(client, endpoint, snapshot, { calls: [{ method: 'check' }] })
  t.deepEqual(only.body.effects.errors, { photo: ['Choose a file.'] })

  const reference = await uploadPng(client, endpoint, snapshot)
  const set = await json(client, endpoint, snapshot, { updates: [['photo', reference]] })
  t.is(set.status, 200)
  const checked = await json(client, set.body.effects.endpoint, next(snapshot, set.body), { calls: [{ method: 'check' }] })
  t.deepEqual(checked.body.effects.errors, {})
  const saved = await json(client, set.body.effects.endpoint, next(snapshot, set.body), { calls: [{ method: 'save' }] })
  t.deepEqual(saved.body.effects.errors, { shots: ['Choose a file.'] }, 'the photo passes; a multiple property wants one file at least')
})

test("an @upload() property's mimes: ['image/*'] means the image types the app accepts, not a 403", async (t) => {
  const { app, client, snapshot, endpoint } = await setup(t)
  const pdf = await json(client, endpoint, snapshot, {
    calls: [{ method: '$upload', params: ['photo', [{ name: 'a.pdf', type: 'application/pdf', size: 10 }]] }],
  })
  t.is(pdf.status, 200)
  t.deepEqual(pdf.body.effects.errors, { photo: ['The file "a.pdf" must be one of: image/png, image/jpeg, image/gif, image/webp.'] })
  const reference = await uploadPng(client, endpoint, snapshot)
  t.regex(reference, /^comp-upload:/)
  const set = await json(client, endpoint, snapshot, { updates: [['photo', reference]] })
  const saved = await json(client, set.body.effects.endpoint, next(snapshot, set.body), { calls: [{ method: 'keep' }] })
  t.deepEqual(saved.body.effects.errors, {})
  t.regex(saved.body.serverMemo.data.path, /^avatars\/[\w-]+\.png$/)
  t.deepEqual(readFileSync(join(app.root, 'storage/app', saved.body.serverMemo.data.path)), PNG)

  const clip = await json(client, endpoint, snapshot, { calls: [{ method: '$upload', params: ['clip', [{ name: 'a.mp4', type: 'video/mp4', size: 10 }]] }] })
  t.is(clip.status, 403, 'a group the app accepts nothing of is still refused')
  t.regex(clip.body.message, /None of the types this property accepts \(video\/\*\) is in comp\.uploads\.mimes/)
})

test('a file refused before it is sent renders the view: {{error}} shows it too, though $upload asked for no render', async (t) => {
  const { client, snapshot, endpoint } = await setup(t)
  const big = await json(client, endpoint, snapshot, {
    calls: [{ method: '$upload', params: ['photo', [{ name: 'big.png', type: 'image/png', size: 2 * 1024 * 1024 }]] }],
    renderless: true,
  })
  t.deepEqual(big.body.effects.errors, { photo: ['The file "big.png" may not be larger than 1024 KB.'] })
  t.regex(big.body.effects.html, /<span class="error">The file &quot;big\.png&quot; may not be larger than 1024 KB\.<\/span>/)
  const fine = await json(client, endpoint, snapshot, {
    calls: [{ method: '$upload', params: ['photo', [{ name: 'me.png', type: 'image/png', size: PNG.length }]] }],
    renderless: true,
  })
  t.truthy(fine.body.effects.upload)
  t.false('html' in fine.body.effects, 'an accepted one stays renderless')
})
