import { existsSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { TestClient } from '../../../../core/testing/index.ts'
import { compApp, next, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>')

const files = {
  'app/components/album.ts': `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Album extends Component {
  @upload({ mimes: ['image/png'] }) photo: TemporaryUploadedFile | null = null
  @upload({ mimes: ['image/png'], multiple: true }) photos: TemporaryUploadedFile[] = []
  @upload() anything: TemporaryUploadedFile | null = null
  caption = ''
  previewable() { this.caption = String(this.anything?.isPreviewable()) }
}
`,
  'resources/views/components/album.hbs':
    '<div>{{#if photo}}<img id="preview" src="{{photo.temporaryUrl}}">{{/if}}{{#each photos}}<i>{{name}}</i>{{/each}} {{caption}}</div>',
  'resources/views/album.hbs': "{{!< layouts/app}}\n@comp('album')",
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => { Route.get('/album', () => view('album')) })
`,
}
const storage = { default: 'local', stores: { local: { driver: 'fs', base: 'storage/app' }, tmp: { driver: 'fs', base: 'storage/tmp' } } }
type Part = { bytes: Buffer; name: string; type: string }

async function setup(t: Parameters<typeof compApp>[0], uploads: Record<string, unknown> = {}) {
  const { app } = await compApp(t, files, { comp: { uploads: { store: 'tmp', ...uploads } }, storage })
  const visit = async () => {
    const client = new TestClient(app)
    const { snapshot, endpoint } = await page(client, '/album')
    let state = { snapshot, endpoint }
    /** One update; the next one goes with the snapshot and address it answered with. */
    const send = async (body: Parameters<typeof update>[3]) => {
      const res = await update(client, state.endpoint, state.snapshot, body)
      const json = await res.json()
      if (res.status === 200) state = { snapshot: next(state.snapshot, json), endpoint: json.effects.endpoint }
      return { status: res.status, json }
    }
    /** Uploads files into a property as the browser does; answers with the references. */
    const upload = async (property: string, parts: Part[]) => {
      const started = await send({
        calls: [{ method: '$upload', params: [property, parts.map((p) => ({ name: p.name, type: p.type, size: p.bytes.length }))] }],
      })
      const form = new FormData()
      for (const part of parts) form.append('files', new Blob([Uint8Array.from(part.bytes)], { type: part.type }), part.name)
      const res = await client.post(started.json.effects.upload.url, form, { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '', accept: 'application/json' })
      return (await res.json()).references as string[]
    }
    return { client, send, upload }
  }
  return { app, visit }
}

const png = (name = 'me.png'): Part => ({ bytes: PNG, name, type: 'image/png' })
const previewOf = (html: string) => /<img id="preview" src="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&').replaceAll('&#x3D;', '=')

test('temporaryUrl(): a signed preview of an uploaded image, shown to the uploading session only, as an image that cannot run', async (t) => {
  const { app, visit } = await setup(t)
  const owner = await visit()
  const [reference] = await owner.upload('photo', [png()])
  const { json } = await owner.send({ updates: [['photo', reference]] })
  const url = previewOf(json.effects.html)
  t.regex(url, /^\/comp\/upload\/preview\?.*expires=\d+.*&signature=[a-f0-9]{64}$/)

  const shown = await owner.client.get(url)
  t.is(shown.status, 200)
  t.is(shown.headers.get('content-type'), 'image/png')
  t.is(shown.headers.get('x-content-type-options'), 'nosniff')
  t.is(shown.headers.get('content-disposition'), 'inline')
  t.deepEqual(Buffer.from(await shown.raw.arrayBuffer()), PNG)

  const stranger = await visit()
  const elsewhere = await stranger.client.get(url)
  t.is(elsewhere.status, 403, 'another session')
  t.deepEqual(await elsewhere.json(), { message: 'This preview belongs to another session.' })
  const tampered = await owner.client.get(url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`))
  t.is(tampered.status, 403)
  t.regex((await tampered.text()) ?? '', /Invalid signature/)
  const params = Object.fromEntries([...new URL(url, 'http://x').searchParams].filter(([key]) => key === 'f' || key === 's'))
  const expired = await owner.client.get(app.service('signer').sign('/comp/upload/preview', { ttlMinutes: -1, params }))
  t.is(expired.status, 403, 'expired')
  t.false((expired.headers.get('content-type') ?? '').startsWith('image/'))
})

test('no preview of what is not a raster image by its content: SVG never, even with a valid signature', async (t) => {
  const { app, visit } = await setup(t)
  const owner = await visit()
  const [photo] = await owner.upload('photo', [png()])
  const [svg] = await owner.upload('anything', [{ bytes: SVG, name: 'x.svg', type: 'image/svg+xml' }])
  const set = await owner.send({ updates: [['photo', photo]] })
  const { s } = Object.fromEntries(new URL(previewOf(set.json.effects.html), 'http://x').searchParams)
  // A correctly signed preview address for the SVG's file, as if temporaryUrl() had made one.
  const signed = app.service('signer').sign('/comp/upload/preview', { ttlMinutes: 5, params: { f: svg!.split(':')[1]!, s: s! } })
  const refused = await owner.client.get(signed)
  t.is(refused.status, 404)
  t.deepEqual(await refused.json(), { message: 'There is no preview of this file.' })
  const asked = await owner.send({ updates: [['anything', svg]], calls: [{ method: 'previewable' }] })
  t.regex(asked.json.effects.html, /false/, 'isPreviewable() says so')
})

test('$removeUpload takes one file out of a multiple property (by reference or name) and deletes it', async (t) => {
  const { app, visit } = await setup(t)
  const owner = await visit()
  const references = await owner.upload('photos', [png('a.png'), png('b.png'), png('c.png')])
  const set = await owner.send({ updates: [['photos', references]] })
  t.regex(set.json.effects.html, /<i>a\.png<\/i><i>b\.png<\/i><i>c\.png<\/i>/)
  const file = (reference: string) => join(app.root, 'storage/tmp/comp-uploads', reference.split(':')[1]!)
  t.true(existsSync(file(references[1]!)))

  const removed = await owner.send({ calls: [{ method: '$removeUpload', params: ['photos', references[1]] }] })
  t.is(removed.status, 200)
  t.deepEqual(removed.json.serverMemo.data.photos, [references[0], references[2]])
  t.false(existsSync(file(references[1]!)), 'the temporary file is gone')
  t.true(existsSync(file(references[0]!)))
  const byName = await owner.send({ calls: [{ method: '$removeUpload', params: ['photos', 'c.png'] }] })
  t.deepEqual(byName.json.serverMemo.data.photos, [references[0]])

  t.is((await owner.send({ calls: [{ method: '$removeUpload', params: ['photos', 'nothing.png'] }] })).status, 422)
  t.is((await owner.send({ calls: [{ method: '$removeUpload', params: ['caption', 'a.png'] }] })).status, 403, 'not an upload property')
  t.is((await owner.send({ calls: [{ method: '$removeUpload', params: ['__proto__', 'a.png'] }] })).status, 403)
})

test('refusals of a multiple upload are keyed photos.N too; files together over uploads.max_kb are refused before sending', async (t) => {
  const { visit } = await setup(t, { max_kb: 64 })
  const owner = await visit()
  const describe = (sizes: number[]) =>
    owner.send({ calls: [{ method: '$upload', params: ['photos', sizes.map((size, i) => ({ name: `${i}.png`, type: 'image/png', size }))] }] })
  const one = await describe([10, 70 * 1024])
  t.deepEqual(one.json.effects.errors, {
    photos: ['The file "1.png" may not be larger than 64 KB.'],
    'photos.1': ['The file "1.png" may not be larger than 64 KB.'],
  })
  t.false('upload' in one.json.effects)
  const together = await describe([50 * 1024, 50 * 1024, 50 * 1024])
  t.deepEqual(together.json.effects.errors, { photos: ['These files may not be larger than 64 KB together.'] })
  t.false('upload' in together.json.effects)
  const fine = await describe([10, 10])
  t.deepEqual(fine.json.effects.errors, {}, 'an accepted upload clears the earlier refusals')
  t.truthy(fine.json.effects.upload)
})
