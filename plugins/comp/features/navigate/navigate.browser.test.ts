import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** Promises the test releases: the server's slow route waits on them. */
const gates = globalThis as unknown as { slowGate?: Promise<void> }

function gate(name: 'slowGate'): () => void {
  let release!: () => void
  gates[name] = new Promise((resolve) => (release = resolve))
  return release
}

const routes = `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/c/{name}', ({ params }) => view('one', { name: params.name, title: params.name }))
  Route.get('/p/a', () => view('pages/a', { title: 'A' }))
  Route.get('/p/b', () => view('pages/b', { title: 'B' }))
  // Styles only from files: no style attribute, no inline <style> (scripts are left alone: the layout's boot script is inline).
  Route.get('/p/csp', (ctx) => { ctx.response.headers.set('content-security-policy', "style-src 'self' 'nonce-t3st'"); return view('pages/c', { title: 'C' }) })
  Route.get('/slow', async () => { await (globalThis as any).slowGate; return view('pages/b', { title: 'slow' }) })
})
`

const player = (inner: string) => `{{#persist "player"}}${inner}{{/persist}}`

const files: Record<string, string> = {
  'routes/web.ts': routes,
  'resources/views/pages/a.hbs': `{{!< layouts/app}}
<h1 id="page">A</h1>
${player('<div id="player" x-data="{ plays: 0 }"><button id="play" x-on:click="plays++">play</button><span id="plays" x-text="plays"></span></div>')}
<a id="hover-b" href="/p/b" wire:navigate.hover>B on hover</a>
<a id="press-b" href="/p/b" wire:navigate>B</a>
<a id="slow" href="/slow" wire:navigate>slow</a>
<div style="height: 4000px"></div>`,
  'resources/views/pages/c.hbs': `{{!< layouts/app}}
<h1 id="page">C</h1>
<a id="slow" href="/slow" wire:navigate>slow</a>`,
  'resources/views/pages/b.hbs': `{{!< layouts/app}}
<h1 id="page">B</h1>
${player('<div id="player">a fresh copy</div>')}
<div style="height: 4000px"></div>
<p id="target">target</p>`,
  'app/components/links.ts': `import { Component } from 'kiln-framework/comp'
export default class Links extends Component {
target = ''
go() { this.redirect(this.target) }
}
`,
  'resources/views/components/links.hbs': `<div>
<a id="js-link" href="javascript:window.__pwned = 1" wire:navigate>js</a>
<a id="data-link" href="data:text/html,<script>alert(1)</script>" wire:navigate>data</a>
<input id="target" wire:model="target"><button id="go" wire:click="go">go</button>
</div>`,
  'app/components/redirector.ts': `import { Component } from 'kiln-framework/comp'
export default class Redirector extends Component {
  title = ''
  save() { this.redirect('/p/b', { navigate: true }) }
  leave() { this.redirect('/p/b') }
}
`,
  'resources/views/components/redirector.hbs': `<form wire:submit="save">
  <input id="title" wire:model="title">
  <button id="save" type="submit">save</button>
  <button id="leave" type="button" wire:click="leave">leave</button>
</form>`,
}

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

/** Two component pages linked with wire:navigate, served on their own app (/c/nav-a, /c/nav-b). */
const navFiles: Record<string, string> = {
  ...component(
    'nav-a',
    `import { Component } from 'kiln-framework/comp'
export default class NavA extends Component { count = 0; increment() { this.count++ } }
`,
    `<div><h1 id="page">A</h1><a id="to-b" href="/c/nav-b" wire:navigate>to B</a><span id="a-count">{{count}}</span><button id="a-inc" wire:click="increment">+</button></div>`,
  ),
  ...component(
    'nav-b',
    `import { Component } from 'kiln-framework/comp'
export default class NavB extends Component { count = 0; increment() { this.count++ } }
`,
    `<div><h1 id="page">B</h1><a id="to-a" href="/c/nav-a" wire:navigate>to A</a><a id="to-missing" href="/nowhere" wire:navigate>missing</a><span id="b-count">{{count}}</span><button id="b-inc" wire:click="increment">+</button></div>`,
  ),
}

let env: BrowserApp
test.before(async () => (env = await browserApp(files)))
test.after.always(() => env?.close())

/** Counts the page's requests for a path. */
function requestsTo(page: Page, path: string): { count: number } {
  const seen = { count: 0 }
  page.on('request', (request) => void (new URL(request.url()).pathname === path && seen.count++))
  return seen
}

const marked = (page: Page) => page.evaluate(() => (window as unknown as { marker?: number }).marker === 1)
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { marker?: number }).marker = 1))

test('wire:navigate swaps the page without a reload, keeps history, initialises the new components, and falls back to a hard navigation on failure', async (t) => {
  const env = await browserApp(navFiles)
  t.teardown(() => env.close())
  const { page, open, errors } = await env.newPage(t)
  await open('/c/nav-a')
  await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true))
  await page.click('#a-inc')
  await textIs(page, '#a-count', '1')
  await page.click('#to-b')
  await textIs(page, '#page', 'B')
  t.true(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true), 'no full reload')
  t.regex(page.url(), /\/c\/nav-b$/)
  t.is(await page.title(), 'nav-b')
  await page.click('#b-inc')
  await textIs(page, '#b-count', '1')
  await page.goBack()
  await textIs(page, '#page', 'A')
  await page.click('#a-inc')
  await textIs(page, '#a-count', '1')
  await page.click('#to-b')
  await textIs(page, '#page', 'B')
  await Promise.all([page.waitForURL(/\/nowhere$/), page.click('#to-missing')])
  t.false(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true), 'a 404 became a normal navigation')
  t.deepEqual(
    errors.filter((line) => !/404/.test(line)),
    [],
  )
})

test('wire:navigate.hover fetches the page on hover, and the click uses it without a second request', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/p/a')
  await mark(page)
  const seen = requestsTo(page, '/p/b')
  await Promise.all([page.waitForRequest((request) => new URL(request.url()).pathname === '/p/b'), page.hover('#hover-b')])
  t.is(seen.count, 1, 'prefetched before any click')
  await page.click('#hover-b')
  await textIs(page, '#page', 'B')
  t.is(seen.count, 1)
  t.true(await marked(page), 'no full reload')
})

test('plain wire:navigate fetches on mousedown, before the click', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/p/a')
  const seen = requestsTo(page, '/p/b')
  const box = (await page.locator('#press-b').boundingBox())!
  await page.mouse.move(box.x + 2, box.y + 2)
  await Promise.all([page.waitForRequest((request) => new URL(request.url()).pathname === '/p/b'), page.mouse.down()])
  t.is(await page.textContent('#page'), 'A', 'fetched, not yet visited')
  await page.mouse.up()
  await textIs(page, '#page', 'B')
  t.is(seen.count, 1)
})

// The two slow visits share the server's one slowGate: serial, so that neither releases the other's visit early.
test.serial('a slow visit shows the progress bar, which goes once the page is there', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/p/a')
  const release = gate('slowGate')
  await page.click('#slow')
  await page.waitForSelector('#comp-progress')
  t.is(await page.textContent('#page'), 'A')
  release()
  await textIs(page, '#page', 'B')
  await page.waitForSelector('#comp-progress', { state: 'detached' })
  t.deepEqual(errors, [])
})

test.serial('the progress bar is styled under a strict style-src policy (CSSOM, no style attribute)', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/p/csp')
  const release = gate('slowGate')
  await page.click('#slow')
  await page.waitForSelector('#comp-progress')
  const style = await page.evaluate(() => {
    const computed = getComputedStyle(document.getElementById('comp-progress')!)
    return [computed.position, computed.height, computed.backgroundColor]
  })
  t.deepEqual(style, ['fixed', '3px', 'rgb(34, 153, 221)'])
  t.deepEqual(errors, [], 'no CSP violation')
  release()
  await textIs(page, '#page', 'B')
})

test('a {{#persist}} block moves into the next page alive: same element, same Alpine state', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/p/a')
  await page.click('#play')
  await textIs(page, '#plays', '1')
  await page.evaluate(() => ((document.getElementById('player') as HTMLElement & { identity?: string }).identity = 'kept'))
  await page.click('#press-b')
  await textIs(page, '#page', 'B')
  t.is(await page.evaluate(() => (document.getElementById('player') as HTMLElement & { identity?: string }).identity), 'kept')
  t.is(await page.locator('#player').count(), 1)
  await page.click('#play')
  await textIs(page, '#plays', '2')
})

test('this.redirect(url, { navigate: true }) from a wire:submit visits without reloading; a plain redirect loads the page', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/redirector')
  await mark(page)
  await page.click('#save')
  await textIs(page, '#page', 'B')
  t.regex(page.url(), /\/p\/b$/)
  t.true(await marked(page), 'the document was not reloaded')
  await open('/c/redirector')
  await mark(page)
  await Promise.all([page.waitForEvent('load'), page.click('#leave')])
  await textIs(page, '#page', 'B')
  t.false(await marked(page), 'a full page load')
})

test('a wire:navigate visit forgets the components of the page it leaves', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/redirector')
  const names = () => page.evaluate(() => (window as unknown as { comp: { all(): { $name: string }[] } }).comp.all().map((wire) => wire.$name))
  t.deepEqual(await names(), ['redirector'])
  await page.click('#save')
  await textIs(page, '#page', 'B')
  t.deepEqual(await names(), [], 'the redirector left with its page')
})

test('a visit scrolls to the top or to its #hash; back restores where the page was left', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/p/a')
  await page.evaluate(() => window.scrollTo(0, 1200))
  await page.waitForFunction(() => window.scrollY === 1200)
  // A click from code: Playwright's own would scroll the link into view first.
  await page.evaluate(() => document.getElementById('press-b')!.click())
  await textIs(page, '#page', 'B')
  await page.waitForFunction(() => window.scrollY === 0)
  await page.evaluate(() => history.back())
  await textIs(page, '#page', 'A')
  await page.waitForFunction(() => window.scrollY === 1200)
  await page.evaluate(() => {
    const link = Object.assign(document.createElement('a'), { href: '/p/b#target', textContent: 'to target' })
    link.setAttribute('wire:navigate', '')
    document.body.prepend(link)
    link.click()
  })
  await textIs(page, '#page', 'B')
  await page.waitForFunction(() => window.scrollY > 3000)
  t.regex(page.url(), /\/p\/b#target$/)
})
test('wire:navigate never runs javascript: or data: addresses', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/links')
  const url = page.url()
  await page.click('#js-link')
  await page.click('#data-link')
  await page.waitForTimeout(300)
  t.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined)
  t.is(page.url(), url)
})
