import test from 'ava'
import { KilnError } from '../../../../core/index.ts'
import { compApp, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { Component, html, testComponent, type ComponentClass } from '../../index.ts'

const routes = `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => { Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' })) })
`

/** A single-file counter (no .hbs), a two-file one beside it, and components that check the order render() → template → view. */
const files = {
  'routes/web.ts': routes,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
  'resources/views/partials/badge.hbs': '<em class="badge">{{label}}</em>',
  'app/components/counter.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Counter extends Component {
  count = 0
  mount(params: { start?: number }) { this.count = params.start ?? 0 }
  increment() { this.count++ }
  static template = html\`
    <div class="counter"><button wire:click="increment">+</button> <span>{{count}}</span>{{> partials/badge label="single"}}</div>
  \`
}
`,
  'app/components/two-file.ts': `import { Component } from 'kiln-framework/comp'
export default class TwoFile extends Component {
  n = 1
  bump() { this.n++ }
}
`,
  'resources/views/components/two-file.hbs': '<p>two-file {{n}}</p>',
  // Both a template and a view file: the template wins; with render() too, render() wins.
  'app/components/both.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Both extends Component {
  static template = html\`<p>from the template</p>\`
}
`,
  'resources/views/components/both.hbs': '<p>from the view file</p>',
  'app/components/rendered.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Rendered extends Component {
  static template = html\`<p>from the template</p>\`
  render() { return '<p>from render()</p>' }
}
`,
  'app/components/parent.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Parent extends Component {
  static template = html\`<div><h1>parent</h1>@comp('two-file', n=5)</div>\`
}
`,
  'app/components/board.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Board extends Component {
  visits = 1
  header = 'h1'
  bump() { this.visits++; this.header = 'h2' }
  static template = html\`<section><h2>{{header}}</h2>{{#island "stats"}}<b>{{visits}} visits</b>{{/island}}
{{#island "chart" lazy=true}}<i>chart {{visits}}</i>{{else}}<p>Loading chart…</p>{{/island}}</section>\`
}
`,
}

test('a single-file component renders its static template and updates through real round trips; two-file components still work', async (t) => {
  const { client } = await compApp(t, files)
  const counter = await testComponent(client, 'counter', { start: 5 })
  t.regex(counter.html, /^<div wire:id="[^"]+" wire:name="counter" wire:snapshot="[^"]+" class="counter">/)
  t.regex(counter.html, /<span>5<\/span><em class="badge">single<\/em>/, 'partials work in a template')
  await counter.call('increment')
  await counter.call('increment')
  t.is(counter.status, 200)
  t.is(counter.get('count'), 7)
  t.regex(counter.html, /<span>7<\/span>/)

  const twoFile = await testComponent(client, 'two-file')
  await twoFile.call('bump')
  t.regex(twoFile.html, /<p wire:id="[^"]+" wire:name="two-file">two-file 2<\/p>/)

  // On a page, through the update endpoint as the browser sends it.
  const { html: pageHtml, snapshot, endpoint } = await page(client, '/page/counter')
  t.regex(pageHtml, /<span>0<\/span>/)
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'increment' }] })
  t.is(res.status, 200)
  t.regex((await res.json()).effects.html, /<span>1<\/span>/)
})

test('render() comes first, then static template, then the view file', async (t) => {
  const { client } = await compApp(t, files)
  t.regex((await testComponent(client, 'both')).html, /from the template/)
  t.regex((await testComponent(client, 'rendered')).html, /from render\(\)/)
})

test('a static template nests other components with @comp', async (t) => {
  const { client } = await compApp(t, files)
  const { html: parent } = await page(client, '/page/parent')
  t.regex(parent, /<h1>parent<\/h1><p wire:id="[^"]+" wire:name="two-file" wire:snapshot="[^"]+">two-file 5<\/p><\/div>/)
})

test('islands inside a static template render alone on an update that names them, lazy ones with their placeholder first', async (t) => {
  const { client } = await compApp(t, files)
  const { html: first, snapshot, endpoint } = await page(client, '/page/board')
  t.regex(first, /<h2>h1<\/h2><div wire:island="stats"><b>1 visits<\/b><\/div>/)
  t.true(first.includes('<p>Loading chart…</p>'))
  const body = await (await update(client, endpoint, snapshot, { calls: [{ method: 'bump' }], island: 'stats' })).json()
  t.deepEqual(body.effects.islands, { stats: '<b>2 visits</b>' })
  t.false('html' in body.effects, 'the rest of the component did not render')
  const loaded = await (await update(client, endpoint, snapshot, { calls: [{ method: '$loadIsland', params: ['chart'] }] })).json()
  t.deepEqual(loaded.effects.islands, { chart: '<i>chart 1</i>' })
})

const broken = {
  'app/components/broken.ts': `import { Component, html } from 'kiln-framework/comp'

export default class Broken extends Component {
  items: string[] = []
  static template = html\`
    <ul>
      {{#each items}}
        <li>{{this</li>
      {{/each}}
    </ul>
  \`
}
`,
}

test('a template that does not parse fails at boot outside production, naming the class, its file and the line', async (t) => {
  const error = await t.throwsAsync(compApp(t, broken), { instanceOf: KilnError })
  t.is((error as KilnError).code, 'E_COMP_TEMPLATE')
  t.regex(error!.message, /^The template of Broken \(.*app\/components\/broken\.ts:8\) does not parse: Parse error on line 3:/)
})

test('in production the same error comes at the first render of the component (shown here in debug mode), and other components still boot', async (t) => {
  const { client } = await compApp(
    t,
    { ...broken, ...files },
    { logging: { level: 'silent' } },
    { APP_ENV: 'production', APP_URL: 'https://shop.example.com', APP_DEBUG: 'true', APP_KEY: 'base64:' + Buffer.alloc(32, 7).toString('base64') },
  )
  t.regex((await testComponent(client, 'counter')).html, /<span>0<\/span>/)
  const error = await t.throwsAsync(testComponent(client, 'broken'))
  t.regex(error!.message, /The template of Broken \(.*broken\.ts:8\) does not parse/)
})

test('${} interpolations are refused by tsc and at run time; an escaped \\${ is a literal ${', (t) => {
  const name = 'Ada'
  // @ts-expect-error an interpolation would be spliced in once, at definition: tsc refuses it.
  const interpolated = () => html`<p>${name}</p>`
  const error = t.throws(interpolated, { instanceOf: KilnError })
  t.regex(error!.message, /cannot interpolate \$\{…\} \(.*single-file\.test\.ts:\d+\)/)
  t.is(html`<p x-text="\`Hi \${name}\`">{{name}}</p>`.source, '<p x-text="`Hi ${name}`">{{name}}</p>', 'an escaped ${ is a literal ${')
})

test('a static template not made with html is refused by tsc, and when the class registers', async (t) => {
  // @ts-expect-error a plain string is neither a template nor a view name: tsc refuses the class.
  class Plain extends Component {
    static template = '<p>{{n}}</p>'
  }
  const { client } = await compApp(t, files, {}, { APP_DEBUG: 'true' })
  const error = await t.throwsAsync(testComponent(client, Plain as unknown as ComponentClass))
  t.regex(error!.message, /Plain\.template must be written with the html tag/)
})
