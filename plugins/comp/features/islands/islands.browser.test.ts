import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

const files = {
  ...component(
    'isle',
    `import { Component } from 'kiln-framework/comp'
export default class Isle extends Component {
  visits = 0
  renders = 0
  rendering() { this.renders++ }
  bump() { this.visits++ }
}
`,
    `<section>
  <span id="renders">{{renders}}</span> <span id="outside-visits">{{visits}}</span>
  {{#island "stats"}}<b id="visits">{{visits}}</b><button id="bump-in" wire:click="bump">in</button>{{/island}}
  <button id="bump-scoped" wire:click="bump" wire:island="stats">scoped</button>
  <button id="refresh" x-on:click="$wire.$island('stats').$refresh()">refresh</button>
  <button id="bump-all" wire:click="bump">all</button>
</section>`,
  ),
  ...component(
    'later',
    `import { Component } from 'kiln-framework/comp'
export default class Later extends Component {
  n = 7
}
`,
    `<section>
  {{#island "soon" defer=true}}<b id="soon">soon {{n}}</b>{{/island}}
  <div style="height: 3000px"></div>
  {{#island "below" lazy=true}}<b id="below">below {{n}}</b>{{else}}<i id="waiting">waiting</i>{{/island}}
</section>`,
  ),
  ...component(
    'twins',
    `import { Component } from 'kiln-framework/comp'
export default class Twins extends Component {
  n = 1
}
`,
    `<section>{{#island "a" lazy=true}}<b id="a">a {{n}}</b>{{/island}}{{#island "b" lazy=true}}<b id="b">b {{n}}</b>{{/island}}</section>`,
  ),
  ...component(
    'finder',
    `import { Component, url } from 'kiln-framework/comp'
export default class Finder extends Component {
  @url({ as: 'q', history: true }) search = ''
  @url({ keep: true }) sort = 'new'
  @url({ except: 'none' }) status = 'open'
}
`,
    `<div>
  <span id="shown">{{search}}</span> <span id="sort">{{sort}}</span> <span id="status">{{status}}</span>
  <button id="alpha" wire:click="$set('search', 'alpha')">a</button>
  <button id="beta" wire:click="$set('search', 'beta')">b</button>
  <button id="old" wire:click="$set('sort', 'old')">old</button>
  <button id="new" wire:click="$set('sort', 'new')">new</button>
  <button id="none" wire:click="$set('status', 'none')">none</button>
  <button id="blank" wire:click="$set('status', '')">blank</button>
</div>`,
  ),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

/** The bodies of the update requests a page sends from now on. */
function updates(page: Page): Array<{ island: string | null; calls: Array<{ method: string; params: unknown[] }> }> {
  const bodies: Array<{ island: string | null; calls: Array<{ method: string; params: unknown[] }> }> = []
  page.on('request', (request) => {
    if (!request.url().includes('/comp/update')) return
    const body = JSON.parse(request.postData() ?? '{}') as { components?: unknown[] }
    // One POST may carry several components' updates: each counts as its own.
    for (const one of (body.components ?? [body]) as typeof bodies) bodies.push(one)
  })
  return bodies
}

const query = (page: Page) => page.evaluate(() => location.search)

/** Marks elements with a data attribute the server's HTML lacks: a morph of them removes it. */
const mark = (page: Page, ids: string[]) => page.evaluate((list) => list.forEach((id) => (document.getElementById(id)!.dataset.mark = '1')), ids)
const marked = (page: Page, id: string) => page.evaluate((one) => document.getElementById(one)?.dataset.mark === '1', id)

test('an inline island: actions inside it, wire:island and $island() re-render only its block, one POST each', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/isle')
  const sent = updates(page)
  let posts = 0
  page.on('request', (request) => request.url().includes('/comp/update') && posts++)
  await mark(page, ['renders', 'outside-visits'])
  await page.click('#bump-in')
  await textIs(page, '#visits', '1')
  t.is(await page.textContent('#outside-visits'), '0', 'the rest of the component was not re-rendered')
  await page.click('#bump-scoped')
  await textIs(page, '#visits', '2')
  t.true((await marked(page, 'renders')) && (await marked(page, 'outside-visits')), 'outside the island, nothing was morphed')
  await page.click('#bump-all')
  await textIs(page, '#outside-visits', '3')
  t.is(await page.textContent('#visits'), '3')
  const renders = await page.textContent('#renders')
  await mark(page, ['renders', 'visits'])
  await page.click('#refresh')
  await page.waitForFunction(() => document.getElementById('visits')?.dataset.mark === undefined)
  t.true(await marked(page, 'renders'), 'the island refresh did not touch the rest')
  t.is(await page.textContent('#renders'), renders, 'nor render the component')
  t.deepEqual(
    sent.map((body) => body.island),
    ['stats', 'stats', null, 'stats'],
  )
  t.is(posts, 4)
})

test('a deferred island loads once the page has started; a lazy one only when scrolled into view, each with one request', async (t) => {
  const { page, open } = await env.newPage(t)
  const sent = updates(page)
  const first = await (await page.request.get(`${env.url}/c/later`)).text()
  t.true(first.includes('<i id="waiting">waiting</i>') && !first.includes('id="soon"'), 'the page itself carries only placeholders')
  await open('/c/later')
  await textIs(page, '#soon', 'soon 7')
  t.is(await page.$('#below'), null, 'not yet: below the fold')
  t.truthy(await page.$('#waiting'))
  t.deepEqual(
    sent.map((body) => body.calls),
    [[{ method: '$loadIsland', params: ['soon'] }]],
  )
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await textIs(page, '#below', 'below 7')
  t.is(sent.length, 2)
  t.deepEqual(sent[1]!.calls, [{ method: '$loadIsland', params: ['below'] }])
})

test('two lazy islands that appear together load in one request', async (t) => {
  const { page, open } = await env.newPage(t)
  const sent = updates(page)
  let posts = 0
  page.on('request', (request) => request.url().includes('/comp/update') && posts++)
  await open('/c/twins')
  await textIs(page, '#a', 'a 1')
  await textIs(page, '#b', 'b 1')
  t.is(posts, 1)
  t.deepEqual(sent[0]!.calls.map((call) => call.params[0]).sort(), ['a', 'b'])
})

test('query string: `as` names the key (read on load and written), `history` pushes entries that back and forward restore', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/finder?q=gamma')
  t.is(await page.textContent('#shown'), 'gamma')
  const start = await page.evaluate(() => history.length)
  await page.click('#alpha')
  await textIs(page, '#shown', 'alpha')
  await page.click('#beta')
  await textIs(page, '#shown', 'beta')
  t.regex(await query(page), /[?&]q=beta(&|$)/)
  t.notRegex(await query(page), /search=/)
  t.is(await page.evaluate(() => history.length), start + 2)

  await page.goBack()
  await textIs(page, '#shown', 'alpha')
  t.regex(await query(page), /[?&]q=alpha(&|$)/)
  await page.goBack()
  await textIs(page, '#shown', 'gamma')
  await page.goForward()
  await textIs(page, '#shown', 'alpha')
  t.regex(await query(page), /[?&]q=alpha(&|$)/, 'restoring did not push or rewrite the entry')
  t.is(await page.evaluate(() => history.length), start + 2)
})

test('query string: `keep` shows the key even at its initial value; `except` is the value that removes it', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/finder')
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sort') === 'new')
  t.is(new URLSearchParams(await query(page)).get('status'), 'open', 'not the except value: shown at once')
  const start = await page.evaluate(() => history.length)
  await page.click('#old')
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sort') === 'old')
  await page.click('#new')
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sort') === 'new')
  await page.click('#none')
  await textIs(page, '#status', 'none')
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('status'))
  await page.click('#blank')
  await textIs(page, '#status', '')
  await page.waitForFunction(() => new URLSearchParams(location.search).get('status') === '')
  t.is(await page.evaluate(() => history.length), start, 'without history, entries are replaced')
})
