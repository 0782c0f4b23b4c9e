import test from 'ava'
import type { Page, Route } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'

/** Components for these tests: each is served at /c/<name>; /p/<view> renders a page of several. */
const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: `import { Component } from 'kiln-framework/comp'\n${source}`,
  [`resources/views/components/${name}.hbs`]: view,
})
const ticker = (name: string, poll: string) =>
  component(
    name,
    `export default class Ticker extends Component {\n  ticks = 0\n  tick() { this.ticks++ }\n}\n`,
    `<div ${poll}="tick"><span id="${name}">{{ticks}}</span></div>`,
  )

const files: Record<string, string> = {
  // A menu outside every component, in the layout.
  'resources/views/layouts/app.hbs': `<!doctype html><html><head><meta charset="utf-8"><meta name="csrf-token" content="{{csrfToken}}"><title>{{title}}</title>@compScripts</head><body>
<nav>
  <a id="nav-home" href="/" wire:current.exact="on">home</a>
  <a id="nav-c" href="/c" wire:current="on">c</a>
  <a id="nav-alpha" href="/c/alpha" wire:navigate wire:current="on">alpha</a>
  <a id="nav-alpha-exact" href="/c/alpha?tab=2" wire:current.exact="on">alpha exact</a>
  <a id="nav-alp" href="/c/alp" wire:current="on">alp</a>
  <a id="nav-beta" href="/c/beta" wire:navigate wire:current.strict="on active">beta</a>
  <a id="nav-beta-slash" href="/c/beta/" wire:current="on">beta/</a>
  <a id="nav-beta-slash-strict" href="/c/beta/" wire:current.strict="on">beta/ strict</a>
</nav>
{{{body}}}</body></html>`,
  'resources/views/polls.hbs': '{{!< layouts/app}}\n{{{comp "poll-plain"}}}{{{comp "poll-keep"}}}<div style="height: 4000px"></div>{{{comp "poll-visible"}}}',
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/c/{name}', ({ params }) => view('one', { name: params.name, title: params.name }))
  Route.get('/p/{view}', ({ params }) => view(params.view, { title: params.view }))
})
`,
  ...component(
    'alpha',
    'export default class Alpha extends Component {\n  renders = 0\n  rendering() { this.renders++ }\n}\n',
    `<div><a id="inner" class="link" href="/c/alpha" wire:current="on">me</a><span id="renders">{{renders}}</span><button id="refresh" wire:click="$refresh">refresh</button></div>`,
  ),
  ...component('beta', 'export default class Beta extends Component {}\n', '<div><p id="beta">beta</p></div>'),
  ...component(
    'flash',
    `export default class Flash extends Component {
  show = false
  open = true
  items = ['a', 'b', 'c']
  toggle() { this.show = !this.show }
  drop(item: string) { this.items = this.items.filter((name) => name !== item) }
}
`,
    `<div>
  <button id="toggle" wire:click="toggle">toggle</button>
  <span id="state">{{#if show}}shown{{else}}hidden{{/if}}</span>
  <div>{{#if show}}<p id="note" wire:transition.opacity.duration.200ms>Saved</p>{{/if}}</div>
  <p id="after">after</p>
  <div id="panel" wire:show="open" wire:transition.duration.200ms>panel</div>
  <button id="close" wire:click="$toggle('open')">close</button>
  <ul>{{#each items}}<li id="item-{{this}}" wire:key="{{this}}" wire:transition.duration.200ms>{{this}}</li>{{/each}}</ul>
  <button id="drop" wire:click="drop('b')">drop b</button>
</div>`,
  ),
  ...component(
    'swaps',
    `export default class Swaps extends Component {
  n = 0
  bump() { this.n++ }
}
`,
    `<div>
  <button id="bump" wire:click="bump">bump</button>
  <div id="morphed"><input id="m-input"><span id="m-n">{{n}}</span></div>
  <div id="replaced" wire:replace><input id="r-input"><span id="r-n">{{n}}</span></div>
  <div id="replaced-self" wire:replace.self x-data="{ open: false }"><button id="open" x-on:click="open = true">open</button><span id="self-open" x-text="open ? 'open' : 'closed'"></span><span id="self-n">{{n}}</span></div>
  <div id="ignored" wire:ignore><span id="i-n">{{n}}</span></div>
  <div id="ignored-self" wire:ignore.self class="server-{{n}}"><span id="is-n">{{n}}</span></div>
</div>`,
  ),
  ...component(
    'danger',
    `export default class Danger extends Component {
  count = 0
  increment() { this.count++ }
}
`,
    `<div>
  <button id="del" wire:click="increment" wire:confirm.prompt="Type DELETE to confirm|DELETE">delete</button>
  <button id="inc" wire:click="increment">+</button>
  <span id="count">{{count}}</span>
</div>`,
  ),
  ...component(
    'waiter',
    `export default class Waiter extends Component {
  done = 0
  slow() { this.done++ }
}
`,
    `<div>
  <button id="slow" wire:click="slow">slow</button><span id="done">{{done}}</span>
  <span id="d-shortest" wire:loading.delay.shortest>shortest</span>
  <span id="d-default" wire:loading.delay>default</span>
  <span id="d-long" wire:loading.delay.long>long</span>
  <span id="d-longest" wire:loading.delay.longest>longest</span>
</div>`,
  ),
  ...ticker('poll-plain', 'wire:poll.100ms'),
  ...ticker('poll-keep', 'wire:poll.100ms.keep-alive'),
  ...ticker('poll-visible', 'wire:poll.100ms.visible'),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

const classesOf = (page: Page, id: string) => page.$eval(`#${id}`, (el) => [...el.classList].sort().join(' '))
const count = async (page: Page, id: string) => Number(await page.textContent(`#${id}`))

/** Records, at every DOM change, whether the watched elements are there and their inline style. */
async function recordStyles(page: Page, ids: string[]): Promise<void> {
  await page.evaluate((watched) => {
    const log: Record<string, string | null>[] = []
    ;(window as unknown as { __log: typeof log }).__log = log
    new MutationObserver(() => {
      const entry: Record<string, string | null> = { state: document.getElementById('state')?.textContent ?? null }
      for (const id of watched) {
        const el = document.getElementById(id)
        entry[id] = el ? (el.getAttribute('style') ?? '') : null
      }
      log.push(entry)
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
  }, ids)
}
const logOf = (page: Page) => page.evaluate(() => (window as unknown as { __log: Record<string, string | null>[] }).__log)

test('wire:current marks links in the layout and in components: prefix by segment, .exact, .strict; again after wire:navigate and morphs', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/alpha')
  await page.waitForFunction(() => document.getElementById('nav-alpha')!.classList.contains('on'))
  t.is(await classesOf(page, 'nav-home'), '', '.exact: / is not current on /c/alpha')
  t.is(await classesOf(page, 'nav-c'), 'on', 'a link is current on the pages under it')
  t.is(await classesOf(page, 'nav-alpha-exact'), 'on', '.exact compares the path, not the query')
  t.is(await classesOf(page, 'nav-alp'), '', 'matching goes by whole segments')
  t.is(await classesOf(page, 'nav-beta'), '')
  t.true(await page.$eval('#nav-alpha', (el) => el.hasAttribute('data-current')))
  t.is(await classesOf(page, 'inner'), 'link on', 'inside a component')
  // A morph gives the link the server's class: the current class comes back with it.
  await page.click('#refresh')
  await textIs(page, '#renders', '2')
  t.is(await classesOf(page, 'inner'), 'link on')

  await page.click('#nav-beta')
  await page.waitForSelector('#beta')
  await page.waitForFunction(() => document.getElementById('nav-beta')!.classList.contains('active'))
  t.is(await classesOf(page, 'nav-beta'), 'active on')
  t.is(await classesOf(page, 'nav-alpha'), '')
  t.false(await page.$eval('#nav-alpha', (el) => el.hasAttribute('data-current')))
  t.is(await classesOf(page, 'nav-beta-slash'), 'on', 'trailing slashes are ignored by default')
  t.is(await classesOf(page, 'nav-beta-slash-strict'), '', '.strict keeps them')
  t.deepEqual(errors, [])
})

test('wire:transition plays Alpine transitions when an update adds or removes the element (keyed list items too) and on wire:show', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/flash')
  await recordStyles(page, ['note', 'panel', 'item-b'])
  await page.click('#toggle')
  await textIs(page, '#note', 'Saved')
  await page.waitForFunction(() => !document.getElementById('note')!.getAttribute('style'))
  t.true(await page.isVisible('#note'))
  t.true(
    (await logOf(page)).some((entry) => /opacity/.test(entry.note ?? '')),
    'it faded in',
  )
  t.is(await page.textContent('#after'), 'after')

  await page.click('#toggle')
  await page.waitForFunction(() => !document.getElementById('note'))
  const leaving = (await logOf(page)).filter((entry) => entry.state === 'hidden' && entry.note !== null)
  t.true(leaving.length > 0, 'the note stayed after the update, while it faded out')
  t.true(
    leaving.some((entry) => /opacity/.test(entry.note!)),
    'it faded out',
  )
  t.is(await page.textContent('#after'), 'after')

  await page.click('#drop')
  await page.waitForFunction(() => !document.getElementById('item-b'))
  t.true(
    (await logOf(page)).some((entry) => /opacity|transform/.test(entry['item-b'] ?? '')),
    'the removed item left with a transition',
  )
  t.deepEqual(await page.$$eval('li', (items) => items.map((item) => item.id)), ['item-a', 'item-c'])

  await page.click('#close')
  await page.waitForSelector('#panel', { state: 'hidden' })
  t.true(
    (await logOf(page)).some((entry) => /transform|opacity/.test(entry.panel ?? '')),
    'wire:show hid it with a transition',
  )
  t.deepEqual(errors, [])
})

test('wire:replace puts in new children, wire:replace.self a new element; wire:ignore and wire:ignore.self keep theirs', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/swaps')
  await page.evaluate(() => {
    for (const id of ['m-input', 'r-input']) (document.getElementById(id) as HTMLElement & { __mark?: boolean }).__mark = true
    document.getElementById('ignored-self')!.setAttribute('data-widget', 'on')
  })
  await page.click('#open')
  await textIs(page, '#self-open', 'open')
  await page.click('#bump')
  await textIs(page, '#m-n', '1')
  const marked = (id: string) => page.$eval(`#${id}`, (el) => (el as HTMLElement & { __mark?: boolean }).__mark === true)
  t.true(await marked('m-input'), 'morphed children are kept')
  t.false(await marked('r-input'), 'wire:replace children are new')
  t.is(await page.textContent('#r-n'), '1')
  t.is(await page.textContent('#self-n'), '1')
  await textIs(page, '#self-open', 'closed')
  t.is(await page.textContent('#i-n'), '0', 'wire:ignore: left alone')
  t.is(await page.textContent('#is-n'), '1', 'wire:ignore.self: its children follow')
  t.is(await page.getAttribute('#ignored-self', 'class'), 'server-0', 'wire:ignore.self: its own attributes stay')
  t.is(await page.getAttribute('#ignored-self', 'data-widget'), 'on')
  t.deepEqual(errors, [])
})

test('wire:confirm.prompt runs the action only when the typed text matches', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/danger')
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
  const dialogs: string[] = []
  const answer = (text: string) =>
    page.once('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`)
      void dialog.accept(text)
    })
  answer('delete')
  await page.click('#del')
  await page.click('#inc')
  await textIs(page, '#count', '1')
  t.is(posts.length, 1, 'the wrong text sent nothing')
  answer('DELETE')
  await page.click('#del')
  await textIs(page, '#count', '2')
  t.deepEqual(dialogs, ['prompt: Type DELETE to confirm', 'prompt: Type DELETE to confirm'])
  t.deepEqual(errors, [])
})

test('wire:loading.delay takes the named delays (.shortest 50 ms, 200 ms, .long 300 ms, .longest 1 s)', async (t) => {
  const { page, open } = await env.newPage(t)
  await page.clock.install()
  await open('/c/waiter')
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/comp/update**', async (route: Route) => {
    await held
    await route.continue()
  })
  await page.clock.pauseAt(Date.now() + 60_000)
  await page.click('#slow')
  // Sends the request (after coalesce_ms); from here the delays count.
  await page.clock.runFor(20)
  const shown = async () => {
    const out: string[] = []
    for (const id of ['d-shortest', 'd-default', 'd-long', 'd-longest']) if (await page.isVisible(`#${id}`)) out.push(id)
    return out
  }
  t.deepEqual(await shown(), [])
  await page.clock.runFor(60)
  t.deepEqual(await shown(), ['d-shortest'])
  await page.clock.runFor(150)
  t.deepEqual(await shown(), ['d-shortest', 'd-default'])
  await page.clock.runFor(100)
  t.deepEqual(await shown(), ['d-shortest', 'd-default', 'd-long'])
  await page.clock.runFor(700)
  t.deepEqual(await shown(), ['d-shortest', 'd-default', 'd-long', 'd-longest'])
  release()
  await page.clock.resume()
  await textIs(page, '#done', '1')
  await page.waitForSelector('#d-longest', { state: 'hidden' })
})

/** Makes the page believe its tab went to the background (or came back). A string, so nothing of the test's build gets in. */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate(`{
    Object.defineProperty(document, 'hidden', { configurable: true, get() { return ${hidden} } })
    Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return '${hidden ? 'hidden' : 'visible'}' } })
    document.dispatchEvent(new Event('visibilitychange'))
  }`)
const reaches = (page: Page, id: string, n: number) =>
  page.waitForFunction(([i, m]) => Number(document.getElementById(i!)!.textContent) >= Number(m), [id, String(n)])

test('wire:poll in a background tab polls one time in 20 unless .keep-alive; .visible polls only in the viewport', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  // The page's clock is Playwright's, so the background part can count ticks one by one: a loaded machine whose
  // answers take longer than a tick would otherwise drop polls (one in flight) and blur the count (CI saw it once).
  // Updates on their way, counted on this side, so that each tick can wait until the page's answers are back.
  let pending = 0
  const isUpdate = (request: { url(): string }) => request.url().includes('/comp/update')
  page.on('request', (request) => isUpdate(request) && pending++)
  page.on('requestfinished', (request) => isUpdate(request) && pending--)
  page.on('requestfailed', (request) => isUpdate(request) && pending--)
  const settled = async () => {
    while (pending > 0) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  await page.clock.install()
  await open('/p/polls')
  await reaches(page, 'poll-plain', 3)
  await reaches(page, 'poll-keep', 3)
  t.is(await count(page, 'poll-visible'), 0, '.visible: not polled below the fold')

  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  // A call waits 16 ms in the request queue: 20 ms more sends any that was queued, and the answers come back.
  await page.clock.runFor(20)
  await settled()
  await setHidden(page, true)
  const plain = await count(page, 'poll-plain')
  const keep = await count(page, 'poll-keep')
  // One tick of the 100 ms intervals, then the answers. In the background the plain poll skips 19 ticks and polls on
  // the 20th; .keep-alive polls on (every tick, or every other one when its queued call goes out in the next tick,
  // where the interval then finds it in flight; throttled, it would poll once).
  for (let i = 1; i <= 19; i++) {
    await page.clock.runFor(100)
    await settled()
  }
  t.is(await count(page, 'poll-plain'), plain, 'throttled in the background: no poll in 19 ticks')
  await page.clock.runFor(100)
  await page.clock.runFor(16)
  await settled()
  await reaches(page, 'poll-plain', plain + 1)
  t.true((await count(page, 'poll-keep')) >= keep + 5, `.keep-alive polled ${(await count(page, 'poll-keep')) - keep} times in 20 ticks`)
  await page.clock.resume()

  await setHidden(page, false)
  const back = await count(page, 'poll-plain')
  await reaches(page, 'poll-plain', back + 3)
  t.is(await count(page, 'poll-visible'), 0)
  await page.evaluate(() => document.getElementById('poll-visible')!.scrollIntoView())
  await reaches(page, 'poll-visible', 2)
  t.deepEqual(errors, [])
})
