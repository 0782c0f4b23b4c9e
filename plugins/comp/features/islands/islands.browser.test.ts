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
    'dashboard',
    `import { Component } from 'kiln-framework/comp'
export default class Dashboard extends Component {
  static islandViews = { stats: 'components/dashboard-stats' }
  visits = 0
  header = 'v1'
  bump() { this.visits++; this.header = 'v2' }
}
`,
    `<section><h2 id="header">{{header}}</h2>{{{island "stats"}}}</section>`,
  ),
  'resources/views/components/dashboard-stats.hbs':
    '<b id="visits">{{visits}}</b><button id="bump" wire:click="bump">bump</button><button id="bump-island" x-on:click="$wire.$island(\'stats\').bump()">island</button>',
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

/** Marks elements with a data attribute the server's HTML lacks: a morph of them removes it. */
const mark = (page: Page, ids: string[]) => page.evaluate((list) => list.forEach((id) => (document.getElementById(id)!.dataset.mark = '1')), ids)
const marked = (page: Page, id: string) => page.evaluate((one) => document.getElementById(one)?.dataset.mark === '1', id)

test('islands: an action inside an island updates only that island; $island() scopes calls', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/dashboard')
  const islands: unknown[] = []
  page.on('request', (request) => request.url().includes('/comp/update') && islands.push(JSON.parse(request.postData() ?? '{}').island))
  await page.click('#bump')
  await textIs(page, '#visits', '1')
  t.is(await page.textContent('#header'), 'v1', 'the rest of the component was not re-rendered')
  await page.click('#bump-island')
  await textIs(page, '#visits', '2')
  t.deepEqual(islands, ['stats', 'stats'])
})

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
