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
    'magic',
    `import { Component } from 'kiln-framework/comp'
export default class Magic extends Component {
  count = 0
  increment() { this.count++ }
  shout() { this.dispatch('shouted', { n: this.count }) }
}
`,
    `<div><span id="count">{{count}}</span><button id="inc" wire:click="increment">+</button><button id="shout" wire:click="shout">shout</button>{{{comp "kid" key="k"}}}</div>`,
  ),
  ...component('kid', `import { Component } from 'kiln-framework/comp'\nexport default class Kid extends Component { age = 3 }\n`, `<p id="kid">{{age}}</p>`),
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

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files, { config: { comp: { uploads: { max_kb: 64 } } } })
})
test.after.always(() => env?.close())

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

test('an unknown $wire.$name throws a clear error naming it and the helpers, and sends nothing', async (t) => {
  const { page, updates } = await open(t, 'magic')
  const before = updates()
  const message = await page.evaluate(() => {
    try {
      ;(wire('magic').$nope as () => void)()
      return 'no error'
    } catch (error) {
      return (error as Error).message
    }
  })
  t.regex(message, /^\$wire\.\$nope does not exist\. The \$ helpers are: .*\$set.*\$watch.*\$on.*\$parent/)
  await page.click('#inc')
  await textIs(page, '#count', '1')
  t.is(updates(), before + 1, 'only the click went to the server')
})

test('$get, $watch (value and old value), $on (server and browser events, unsubscribe) and $parent', async (t) => {
  const { page } = await open(t, 'magic')
  await page.evaluate(() => {
    const w = window as unknown as { seen: unknown[]; heard: unknown[]; off: () => void }
    w.seen = []
    w.heard = []
    wire('magic').$watch('count', (value: unknown, old: unknown) => w.seen.push([value, old]))
    w.off = wire('magic').$on('shouted', (detail: { n: number }) => w.heard.push(detail.n)) as () => void
  })
  await page.click('#inc')
  await page.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length === 1)
  t.deepEqual(await page.evaluate('window.seen'), [[1, 0]])
  t.is(await page.evaluate(() => wire('magic').$get('count')), 1)
  await page.click('#shout')
  await page.waitForFunction(() => (window as unknown as { heard: number[] }).heard.length === 1)
  const heard = await page.evaluate(() => {
    const w = window as unknown as { heard: number[]; off: () => void }
    wire('magic').$dispatch('shouted', { n: 7 })
    w.off()
    wire('magic').$dispatch('shouted', { n: 8 })
    return w.heard
  })
  t.deepEqual(heard, [1, 7], 'from the server, from the browser, and nothing once unsubscribed')
  t.deepEqual(
    await page.evaluate(() => [
      (wire('kid').$parent as unknown as Wire).count,
      wire('magic').$parent === undefined,
      (wire('kid').$parent as unknown as Wire).$name,
    ]),
    [1, true, 'magic'],
  )
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
