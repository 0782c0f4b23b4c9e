import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

const files = {
  ...component(
    'gallery',
    `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Gallery extends Component {
  @upload({ mimes: ['image/png'] }) photo: TemporaryUploadedFile | null = null
  @upload({ mimes: ['image/png'], multiple: true }) photos: TemporaryUploadedFile[] = []
}
`,
    `<div>
  <input id="photo" type="file" wire:model="photo" x-on:comp-upload-cancel="$el.dataset.cancelled = 'yes'">
  <input id="photos" type="file" multiple wire:model="photos">
  {{#if photo}}<img id="preview" src="{{photo.temporaryUrl}}">{{/if}}
  <ul id="shots">{{#each photos}}<li>{{name}}</li>{{/each}}</ul>
  <span id="photos-error" x-text="$errors.first('photos')"></span>
  <span id="photos-1-error" x-text="$errors.first('photos.1')"></span>
</div>`,
  ),
}

/** An uploader with per-file rules, served with the default upload settings (/c/uploader). */
const uploaderFiles: Record<string, string> = {
  ...component(
    'uploader',
    `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Uploader extends Component {
  @upload({ maxKb: 64, mimes: ['image/png', 'image/jpeg'] }) photo: TemporaryUploadedFile | null = null
  stored = ''
  async save() { this.stored = await this.photo!.store('photos'); this.photo = null }
}
`,
    `<div><input id="file" type="file" wire:model="photo" x-on:comp-upload-progress="window.__progress = (window.__progress || []).concat($event.detail.progress)" x-on:comp-upload-finish="$el.dataset.done = 'yes'"><span id="photo-name">{{#if photo}}{{photo.name}} {{photo.size}}{{/if}}</span><span id="photo-error" x-text="$errors.first('photo')"></span><button id="save" wire:click="save">save</button><span id="stored">{{stored}}</span></div>`,
  ),
  ...component(
    'refusals',
    `import { Component, TemporaryUploadedFile, upload } from 'kiln-framework/comp'
export default class Refusals extends Component {
  @upload({ maxKb: 64, mimes: ['image/png'] }) photo: TemporaryUploadedFile | null = null
}
`,
    `<div><input id="file" type="file" wire:model="photo"><span id="view-error">{{error "photo"}}</span><span id="bag-error" x-text="$errors.first('photo')"></span><span id="photo-name">{{#if photo}}{{photo.name}}{{/if}}</span></div>`,
  ),
}

let env: BrowserApp
let plain: BrowserApp
test.before(async () => {
  env = await browserApp(files, { config: { comp: { uploads: { max_kb: 64 } } } })
  plain = await browserApp(uploaderFiles)
})
test.after.always(async () => {
  await env?.close()
  await plain?.close()
})

/** Opens a component's page with `window.wire(name)` giving a component's `$wire`, and counts update requests. */
async function open(t: Parameters<BrowserApp['newPage']>[0], name: string): Promise<{ page: Page; updates: () => number }> {
  const { page, open } = await env.newPage(t)
  let updates = 0
  page.on('request', (request) => request.url().includes('/comp/update') && updates++)
  await page.addInitScript(() => {
    const w = window as unknown as { wire: (name: string) => unknown; Alpine: { evaluate(el: Element, expression: string): unknown } }
    w.wire = (name) => w.Alpine.evaluate(document.querySelector(`[wire\\:name="${name}"]`)!, '$wire')
  })
  await open(`/c/${name}`)
  return { page, updates: () => updates }
}

type Wire = Record<string, unknown> & { [helper: `$${string}`]: (...args: unknown[]) => unknown }
declare const wire: (name: string) => Wire

test('uploads: progress events, the file reaches the property, and the component stores it', async (t) => {
  const { page, open } = await plain.newPage(t)
  await open('/c/uploader')
  await page.setInputFiles('#file', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await page.waitForFunction(() => document.getElementById('file')?.dataset.done === 'yes')
  const progress = (await page.evaluate('window.__progress')) as number[]
  t.is(progress.at(-1), 100, JSON.stringify(progress))
  await textIs(page, '#photo-name', `me.png ${PNG.length}`)
  await page.click('#save')
  await page.waitForFunction(() => /^photos\/[\w-]+\.png$/.test(document.getElementById('stored')?.textContent ?? ''))
  t.pass()
})

test('uploads: a file the property refuses, before sending (too large) or after (its content is not an image), shows in $errors', async (t) => {
  const { page, open } = await plain.newPage(t)
  await open('/c/uploader')
  await page.setInputFiles('#file', { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(65 * 1024, 1) })
  await textIs(page, '#photo-error', 'The file "huge.png" may not be larger than 64 KB.')
  await page.setInputFiles('#file', { name: 'page.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') })
  await textIs(page, '#photo-error', 'The content of "page.png" is not one of: image/png, image/jpeg.')
  await page.setInputFiles('#file', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await textIs(page, '#photo-name', `me.png ${PNG.length}`)
  t.is(await page.textContent('#photo-error'), '', 'a good file clears the message')
})

test('uploads: a file refused before sending shows in {{error "photo"}} as well as in $errors', async (t) => {
  const { page, open } = await plain.newPage(t)
  await open('/c/refusals')
  await page.setInputFiles('#file', { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(65 * 1024, 1) })
  await textIs(page, '#view-error', 'The file "huge.png" may not be larger than 64 KB.')
  t.is(await page.textContent('#bag-error'), 'The file "huge.png" may not be larger than 64 KB.')
  await page.setInputFiles('#file', { name: 'a.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') })
  await textIs(page, '#view-error', 'The file "a.pdf" must be one of: image/png.')
  await page.setInputFiles('#file', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await textIs(page, '#photo-name', 'me.png')
  t.is(await page.textContent('#view-error'), '', 'a good file clears it')
})

test('uploads: several files over uploads.max_kb together, or one of them refused by content, show in $errors (photos and photos.1)', async (t) => {
  const { page } = await open(t, 'gallery')
  const big = (name: string) => ({ name, mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(50 * 1024)]) })
  await page.setInputFiles('#photos', [big('a.png'), big('b.png'), big('c.png')])
  await textIs(page, '#photos-error', 'These files may not be larger than 64 KB together.')
  const html = { name: 'b.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') }
  await page.setInputFiles('#photos', [{ name: 'a.png', mimeType: 'image/png', buffer: PNG }, html])
  await textIs(page, '#photos-1-error', 'The content of "b.png" is not one of: image/png.')
  t.is(await page.textContent('#photos-error'), 'The content of "b.png" is not one of: image/png.')
  t.is(await page.locator('#shots li').count(), 0)
})

test('uploads: temporaryUrl() shows the chosen image before it is stored', async (t) => {
  const { page } = await open(t, 'gallery')
  await page.setInputFiles('#photo', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await page.waitForFunction(() => (document.getElementById('preview') as HTMLImageElement | null)?.naturalWidth === 1)
  t.regex((await page.getAttribute('#preview', 'src')) ?? '', /\/comp\/upload\/preview\?.*signature=/)
})

test('uploads: $uploadMultiple, then $removeUpload takes one file out', async (t) => {
  const { page } = await open(t, 'gallery')
  await page.evaluate(
    (bytes) => {
      // (No named function in here: the test runner's transform would name it with a helper the page lacks.)
      const files = ['a.png', 'b.png', 'c.png'].map((name) => new File([new Uint8Array(bytes)], name, { type: 'image/png' }))
      void wire('gallery').$uploadMultiple('photos', files)
    },
    [...PNG],
  )
  await textIs(page, '#shots', 'a.pngb.pngc.png')
  await page.evaluate(() => wire('gallery').$removeUpload('photos', (wire('gallery').photos as string[])[1]))
  await textIs(page, '#shots', 'a.pngc.png')
  t.is(await page.evaluate(() => (wire('gallery').photos as string[]).length), 2)
})

test('uploads: $cancelUpload stops an upload in progress; the property keeps its value', async (t) => {
  const { page, updates } = await open(t, 'gallery')
  let arrived!: () => void
  const held = new Promise<void>((resolve) => (arrived = resolve))
  // The file's request is held, so the upload is surely still in progress when it is cancelled.
  await page.route(/\/comp\/upload\?/, () => arrived())
  await page.setInputFiles('#photo', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await held
  const before = updates()
  await page.evaluate(() => wire('gallery').$cancelUpload('photo'))
  await page.waitForFunction(() => document.getElementById('photo')?.dataset.cancelled === 'yes')
  t.is(await page.evaluate(() => wire('gallery').photo), null)
  t.is(updates(), before, 'no reference was set')
  t.is(await page.$('#preview'), null)
})
