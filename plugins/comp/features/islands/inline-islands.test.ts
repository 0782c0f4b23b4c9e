import test from 'ava'
import { compApp, next, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { inlineIslands } from './inline-islands.ts'

const files = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => { Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' })) })
`,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
  'app/components/board.ts': `import { Component } from 'kiln-framework/comp'
export default class Board extends Component {
  visits = 1
  header = 'h1'
  bump() { this.visits++; this.header = 'h2' }
}
`,
  'resources/views/components/board.hbs': `<section><h2>{{header}}</h2>{{#island "stats"}}<b>{{visits}} visits</b>{{/island}}
{{#island "chart" lazy=true}}<i>chart {{visits}}</i>{{else}}<p>Loading chart…</p>{{/island}}
{{#island "feed" defer=true}}<i>feed {{header}}</i>{{/island}}</section>`,
  'app/components/inline-board.ts': `import { Component } from 'kiln-framework/comp'
export default class InlineBoard extends Component {
  n = 1
  bump() { this.n++ }
  render() { return '<div><p>{{n}} outside</p>{{#island "count"}}<b>{{n}}</b>{{/island}}</div>' }
}
`,
}

test('an inline island renders in place; an update naming it answers only its inner HTML', async (t) => {
  const { client } = await compApp(t, files)
  const { html, snapshot, endpoint } = await page(client, '/page/board')
  t.regex(html, /<h2>h1<\/h2><div wire:island="stats"><b>1 visits<\/b><\/div>/)
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'bump' }], island: 'stats' })
  t.is(res.status, 200)
  const body = await res.json()
  t.deepEqual(body.effects.islands, { stats: '<b>2 visits</b>' })
  t.false('html' in body.effects, 'the rest of the component did not render')
  t.is(body.serverMemo.data.header, 'h2', 'the state still changed')

  const inline = await page(client, '/page/inline-board')
  t.regex(inline.html, /<p>1 outside<\/p><div wire:island="count"><b>1<\/b><\/div>/)
  const answer = await (await update(client, inline.endpoint, inline.snapshot, { calls: [{ method: 'bump' }], island: 'count' })).json()
  t.deepEqual(answer.effects.islands, { count: '<b>2</b>' }, 'a template returned by render() has islands too')
})

test('lazy and deferred islands render their placeholder first; $loadIsland calls load several in one request', async (t) => {
  const { client } = await compApp(t, files)
  const { html, snapshot, endpoint } = await page(client, '/page/board')
  t.true(html.includes(`<div wire:island="chart" wire:intersect.once="$loadIsland('chart')"><p>Loading chart…</p></div>`), html)
  t.true(html.includes(`<div wire:island="feed" wire:init="$loadIsland('feed')"></div>`), 'no {{else}}: an empty placeholder')
  t.false(html.includes('chart 1'))

  const loads = {
    calls: [
      { method: '$loadIsland', params: ['chart'] },
      { method: '$loadIsland', params: ['feed'] },
    ],
  }
  const loaded = await (await update(client, endpoint, snapshot, loads)).json()
  t.deepEqual(loaded.effects.islands, { chart: '<i>chart 1</i>', feed: '<i>feed h1</i>' })
  t.false('html' in loaded.effects)

  // With another call in the same request, the whole component renders, islands with their content.
  const both = await (
    await update(client, endpoint, next(snapshot, loaded), { calls: [{ method: 'bump' }, { method: '$loadIsland', params: ['chart'] }] })
  ).json()
  t.regex(both.effects.html, /<div wire:island="chart"><i>chart 2<\/i><\/div>/)
  t.false(both.effects.html.includes('Loading'), 'after the first render, lazy islands render their content')
})

test('an island the component does not have, or a bad name, is a 422', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/board')
  const unknown = await update(client, endpoint, snapshot, { calls: [{ method: '$loadIsland', params: ['nope'] }] })
  t.is(unknown.status, 422)
  t.regex((await unknown.json()).message, /has no island "nope"/)
  t.is((await update(client, endpoint, snapshot, { island: 'nope' })).status, 422)
  t.is((await update(client, endpoint, snapshot, { calls: [{ method: '$loadIsland', params: [{ __proto__: 1 }] }] })).status, 422)
})

test('inlineIslands finds named blocks at any depth, each as its own source', (t) => {
  const blocks = inlineIslands('<div>{{#if a}}{{~#island "x" lazy=true~}}<b>{{y}}</b>{{else}}wait{{/island}}{{/if}}{{#island name}}{{/island}}</div>')
  t.deepEqual([...blocks], [['x', '{{~#island "x" lazy=true~}}<b>{{y}}</b>{{else}}wait{{/island}}']])
})
