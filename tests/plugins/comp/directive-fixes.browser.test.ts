import test, { type ExecutionContext } from 'ava'
import type { Page, Route } from 'playwright-core'
import { definePlugin } from '../../../core/index.ts'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'

/** Components for these tests: each is served at /c/<name> (in the layout with `@compScripts`) and /bare/<name> (no layout). */
const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: `import { Component } from 'kiln-framework/comp'\n${source}`,
  [`resources/views/components/${name}.hbs`]: view,
})

const files: Record<string, string> = {
  // A page with no @compScripts: the scripts (and the hiding style) are injected.
  'resources/views/bare.hbs': '<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body>{{{comp name}}}</body></html>',
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/c/{name}', ({ params }) => view('one', { name: params.name, title: params.name }))
  Route.get('/bare/{name}', ({ params }) => view('bare', { name: params.name }))
})
`,
  ...component(
    'sorter',
    `export default class Sorter extends Component {
  items = ['a', 'b', 'c']
  moves = ''
  move(item: string, position: number) {
    const rest = this.items.filter((key) => key !== item)
    rest.splice(position, 0, item)
    this.items = rest
    this.moves += item + position + ';'
  }
}
`,
    `<div>
  <ul id="list" wire:sort="move">{{#each items}}<li wire:sort:item="{{this}}" id="item-{{this}}" style="padding: 10px">{{this}}</li>{{/each}}</ul>
  <p id="moves">{{moves}}</p>
</div>`,
  ),
  ...component(
    'sorter-order',
    `export default class SorterOrder extends Component {
  items = ['a', 'b', 'c']
  orders = ''
  reorder(keys: string[]) { this.items = keys; this.orders += keys.join('') + ';' }
}
`,
    `<div>
  <ul id="list" wire:sort.order="reorder">{{#each items}}<li wire:key="{{this}}" wire:sort:item="{{this}}" id="item-{{this}}" style="padding: 10px">{{this}}</li>{{/each}}</ul>
  <p id="orders">{{orders}}</p>
</div>`,
  ),
  ...component(
    'expressions',
    `export default class Expressions extends Component {
  open = false
  title = 'ab'
  name = 'kiln'
  toggle() { this.open = !this.open }
}
`,
    `<div>
  <p id="closed" wire:show="!open">closed</p>
  <p id="long" wire:show="title.length > 2">long enough</p>
  <p id="upper" wire:text="name.toUpperCase()"></p>
  <input id="title" wire:model.live="title">
  <button id="toggle" wire:click="toggle">toggle</button>
</div>`,
  ),
  ...component(
    'bad-expression',
    `export default class BadExpression extends Component {
  items = ['x']
}
`,
    `<div><p id="bad" wire:text="items.map((item) => item + '!').join()"></p></div>`,
  ),
  ...component(
    'typing',
    `export default class Typing extends Component {
  quick = ''
  slow = ''
  steady = ''
  later = ''
  changed = ''
  blurred = ''
  saved = ''
  save() { this.saved = this.later }
}
`,
    `<div>
  <input id="quick" wire:model.live="quick">
  <input id="slow" wire:model.live.debounce.500ms="slow">
  <input id="steady" wire:model.live.throttle.400ms="steady">
  <input id="later" wire:model="later">
  <input id="changed" wire:model.change="changed">
  <input id="blurred" wire:model.blur="blurred">
  <button id="save" wire:click="save">save</button>
  <span id="server-quick">{{quick}}</span> <span id="server-slow">{{slow}}</span> <span id="server-steady">{{steady}}</span>
  <span id="server-later">{{later}}</span> <span id="server-changed">{{changed}}</span> <span id="server-blurred">{{blurred}}</span>
  <span id="saved">{{saved}}</span>
</div>`,
  ),
  ...component(
    'booting',
    `export default class Booting extends Component {
  note = ''
  async slow() { await new Promise((resolve) => setTimeout(resolve, 300)) }
}
`,
    `<div>
  <span id="loading" wire:loading>loading</span>
  <span id="loading-delay" wire:loading.delay>loading later</span>
  <span id="offline" wire:offline>offline</span>
  <span id="dirty" wire:dirty>unsaved</span>
  <span id="cloaked" wire:cloak>cloaked</span>
  <span id="plain">plain</span>
  <input id="note" wire:model="note">
  <button id="slow" wire:click="slow">slow</button>
</div>`,
  ),
}

/** A strict policy with a nonce for the page's own inline tags, as docs/development.md shows. */
const nonceCsp = definePlugin({
  name: 'nonce-csp',
  boot(app) {
    app.middleware.prependToGroup('global', async (ctx, next) => {
      const nonce = Math.random().toString(36).slice(2)
      ctx.response.headers.set('content-security-policy', `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'`)
      return next()
    })
  },
})

let env: BrowserApp
let csp: BrowserApp
test.before(async () => {
  env = await browserApp(files)
  csp = await browserApp(files, { config: { comp: { csp_safe: true } }, plugins: [nonceCsp] })
})
test.after.always(async () => {
  await env?.close()
  await csp?.close()
})

/** The update POSTs a page sends from now on. */
function posts(page: Page): Array<{ updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }> }> {
  const sent: Array<{ updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }> }> = []
  page.on('request', (request) => request.method() === 'POST' && request.url().includes('/comp/update') && sent.push(JSON.parse(request.postData() ?? '{}')))
  return sent
}

/** Drops `item` on the lower half of `onto`: it lands after it. */
const dropAfter = (page: Page, item: string, onto: string) => page.dragAndDrop(item, onto, { targetPosition: { x: 5, y: 30 } })
const order = (page: Page) => page.$$eval('#list li', (items) => items.map((li) => li.textContent).join(''))

test('bug 1: wire:sort calls the method with (item, position), and sorting still works after the answer re-rendered the list', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/sorter')
  const sent = posts(page)
  await dropAfter(page, '#item-a', '#item-c')
  await textIs(page, '#moves', 'a2;')
  t.deepEqual(sent[0]!.calls, [{ method: 'move', params: ['a', 2] }])
  t.is(await order(page), 'bca')
  // The morph gave the items the server's attributes: dragging must still work.
  await dropAfter(page, '#list li:nth-child(1)', '#list li:nth-child(3)')
  await textIs(page, '#moves', 'a2;b2;')
  t.is(await order(page), 'cab')
  t.deepEqual(errors, [])
})

test('bug 1: wire:sort.order calls the method with every key in the new order, again after a re-render', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/sorter-order')
  await dropAfter(page, '#item-a', '#item-c')
  await textIs(page, '#orders', 'bca;')
  await dropAfter(page, '#item-b', '#item-a')
  await textIs(page, '#orders', 'bca;cab;')
  t.is(await order(page), 'cab')
})

/** The expression checks of bug 2, in the plain and the CSP-safe build. */
async function expressions(t: ExecutionContext, app: BrowserApp) {
  const { page, open, errors } = await app.newPage(t)
  await open('/c/expressions')
  t.true(await page.isVisible('#closed'), 'wire:show="!open"')
  t.false(await page.isVisible('#long'), 'wire:show="title.length > 2" with a 2-letter title')
  t.is(await page.textContent('#upper'), 'KILN', 'wire:text="name.toUpperCase()"')
  await page.type('#title', 'c')
  await page.waitForSelector('#long', { state: 'visible' })
  await page.click('#toggle')
  await page.waitForSelector('#closed', { state: 'hidden' })
  t.is(await page.textContent('#upper'), 'KILN', 'still right after a morph')
  t.deepEqual(errors, [])
}

test('bug 2: wire:show and wire:text take expressions', (t) => expressions(t, env))

test('bug 2: in CSP-safe mode wire:show and wire:text take what the CSP build evaluates, and say so for what it cannot', async (t) => {
  await expressions(t, csp)
  const { page, open } = await csp.newPage(t)
  const failed = page.waitForEvent('pageerror')
  await open('/c/bad-expression')
  t.regex((await failed).message, /CSP Parser Error/)
})

/**
 * Types into an input from the page's own timers, `gap` ms between keys: steadier than keys sent from the test
 * process on a busy machine (each key is an `input` event, as a keyboard gives).
 */
function typeInPage(page: Page, selector: string, text: string, gap: number): Promise<void> {
  return page.evaluate(
    ([s, chars, ms]) =>
      new Promise<void>((resolve) => {
        const input = document.querySelector(s) as HTMLInputElement
        let typed = 0
        // An inline callback: a named function here would get a helper name the page does not have.
        const timer = setInterval(() => {
          input.value += chars[typed++]
          input.dispatchEvent(new Event('input', { bubbles: true }))
          if (typed < chars.length) return
          clearInterval(timer)
          resolve()
        }, ms)
      }),
    [selector, text, gap] as const,
  )
}

// Serial: it runs alone, so the page's timers keep their pace.
test.serial('bug 3: wire:model.live waits for a 150 ms pause; .live.debounce.500ms and .live.throttle.400ms send fewer requests than keys', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/typing')
  const sent = posts(page)
  const carrying = (path: string) => sent.filter((body) => body.updates.some(([name]) => name === path))
  await typeInPage(page, '#quick', 'typing', 40)
  await textIs(page, '#server-quick', 'typing')
  // Six keys 40 ms apart: one request once typing pauses (a slow machine may split it, not one per key).
  t.true(carrying('quick').length <= 2, `${carrying('quick').length} requests for six keys`)
  await typeInPage(page, '#slow', 'typing', 60)
  await textIs(page, '#server-slow', 'typing')
  t.true(carrying('slow').length <= 2, `${carrying('slow').length} requests for six keys`)
  await typeInPage(page, '#steady', 'typing', 60)
  await textIs(page, '#server-steady', 'typing')
  t.true(carrying('steady').length < 6, `${carrying('steady').length} requests for six keys`)
})

test('bug 4: plain wire:model goes with the next action; .change sends on change; .blur sends on blur', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/typing')
  const sent = posts(page)
  await page.fill('#later', 'with the action')
  await page.dispatchEvent('#later', 'change')
  await page.click('#save')
  await textIs(page, '#saved', 'with the action')
  t.is(sent.length, 1, 'one request: the action, carrying the change')
  t.deepEqual(sent[0]!.updates, [['later', 'with the action']])
  t.deepEqual(sent[0]!.calls, [{ method: 'save', params: [] }])

  await page.fill('#changed', 'now')
  await page.dispatchEvent('#changed', 'change')
  await textIs(page, '#server-changed', 'now')
  t.deepEqual(sent.at(-1)!.updates, [['changed', 'now']])

  await page.fill('#blurred', 'on blur')
  await page.focus('#changed')
  await textIs(page, '#server-blurred', 'on blur')
  t.deepEqual(sent.at(-1)!.updates, [['blurred', 'on blur']])
})

const HIDDEN_BEFORE_BOOT = ['#loading', '#loading-delay', '#offline', '#dirty', '#cloaked']

/** Opens a page whose comp.js is held back: checks what shows before the scripts boot, then lets them and checks after. */
async function beforeAndAfterBoot(t: ExecutionContext, app: BrowserApp, path: string) {
  const { page, errors } = await app.newPage(t)
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/comp\/comp\.js/, async (route: Route) => {
    await held
    await route.continue()
  })
  await page.goto(`${app.url}${path}`, { waitUntil: 'commit' })
  await page.waitForSelector('#plain')
  t.true(await page.isVisible('#plain'))
  for (const selector of HIDDEN_BEFORE_BOOT) t.false(await page.isVisible(selector), `${selector} is hidden before the scripts boot`)
  release()
  await page.waitForFunction(() => (window as unknown as { Alpine?: unknown }).Alpine !== undefined)
  await page.waitForSelector('#cloaked', { state: 'visible' })
  for (const selector of ['#loading', '#loading-delay', '#offline', '#dirty']) t.false(await page.isVisible(selector), `${selector} is hidden after boot`)
  await page.fill('#note', 'typed')
  await page.waitForSelector('#dirty', { state: 'visible' })
  // The action's request is held until wire:loading has been seen: a 300 ms action alone can finish between two of
  // the locator's polls on a loaded machine, and the test would wait for a state that came and went.
  let letUpdateGo!: () => void
  const updateHeld = new Promise<void>((resolve) => (letUpdateGo = resolve))
  await page.route(/\/comp\/update/, async (route: Route) => {
    await updateHeld
    await route.continue()
  })
  await page.click('#slow')
  await page.waitForSelector('#loading', { state: 'visible' })
  letUpdateGo()
  await page.waitForSelector('#loading', { state: 'hidden' })
  t.false(await page.isVisible('#dirty'), 'the change went with the action')
  t.deepEqual(
    errors.filter((line) => /Content Security Policy|Refused/.test(line)),
    [],
  )
}

test('bug 5: wire:loading, wire:offline, wire:dirty and wire:cloak stay hidden until the scripts boot (@compScripts)', (t) =>
  beforeAndAfterBoot(t, env, '/c/booting'))

test('bug 5: the same with injected scripts and with @compScripts, under a nonce policy for styles and scripts', async (t) => {
  const response = await fetch(`${csp.url}/bare/booting`)
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
  const html = await response.text()
  t.truthy(nonce)
  t.true(html.includes(`<style nonce="${nonce}"`), 'the injected style carries the nonce')
  await beforeAndAfterBoot(t, csp, '/bare/booting')
  // And @compScripts in a layout, with the nonce queued on the context.
  await beforeAndAfterBoot(t, csp, '/c/booting')
})
