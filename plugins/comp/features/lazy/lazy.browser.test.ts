import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

/** A lazy card and a deferred card below the fold of a long page (/c/lazy-page). */
const files: Record<string, string> = {
  ...component(
    'lazy-card',
    `import { Component } from 'kiln-framework/comp'
export default class LazyCard extends Component {
  static lazy = true
  loaded = false
  mount() { this.loaded = true }
}
`,
    `<article id="lazy-card">{{#if loaded}}loaded{{/if}}</article>`,
  ),
  ...component(
    'deferred-card',
    `import { Component } from 'kiln-framework/comp'
export default class DeferredCard extends Component {
  static defer = true
  loaded = false
  mount() { this.loaded = true }
}
`,
    `<article id="deferred-card">{{#if loaded}}deferred loaded{{/if}}</article>`,
  ),
  ...component(
    'lazy-page',
    `import { Component } from 'kiln-framework/comp'
export default class LazyPage extends Component {}
`,
    `<div><div style="height: 3000px"></div>{{{comp "lazy-card"}}}{{{comp "deferred-card"}}}</div>`,
  ),
  // Neither class is lazy or deferred: the page makes them so where it uses them.
  ...component(
    'slow-chart',
    `import { Component } from 'kiln-framework/comp'
export default class SlowChart extends Component {
  title = ''
  mountedWith = ''
  placeholder() { return '<p id="slow-chart" class="skeleton">Loading {{title}}…</p>' }
  mount(params: Record<string, unknown>) { this.mountedWith = JSON.stringify(params) }
}
`,
    `<article id="slow-chart">{{title}} chart, mounted with {{mountedWith}}</article>`,
  ),
  ...component(
    'news-feed',
    `import { Component } from 'kiln-framework/comp'
export default class NewsFeed extends Component {
  topic = ''
  mountedWith = ''
  mount(params: Record<string, unknown>) { this.mountedWith = JSON.stringify(params) }
}
`,
    `<article id="news-feed">{{topic}} news, mounted with {{mountedWith}}</article>`,
  ),
  ...component(
    'per-use-page',
    `import { Component } from 'kiln-framework/comp'
export default class PerUsePage extends Component {}
`,
    `<div>@comp('news-feed', topic='Kiln', defer=true)<div style="height: 3000px"></div>@comp('lazy-card', lazy=false)@comp('slow-chart', title='Sales', lazy=true)</div>`,
  ),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('lazy components load when scrolled into view; deferred ones right after the page paints', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/lazy-page')
  await textIs(page, '#deferred-card', 'deferred loaded')
  t.is(await page.$('#lazy-card'), null, 'not yet: it is below the fold, still its placeholder')
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await textIs(page, '#lazy-card', 'loaded')
})

test('lazy=true and defer=true on one use: the placeholder() shows, then the component loads with its parameters; lazy=false loads with the page', async (t) => {
  const { page, open } = await env.newPage(t)
  const loads: string[] = []
  page.on('request', (request) => request.url().includes('/comp/update') && loads.push(request.postData() ?? ''))
  await open('/c/per-use-page')
  // Below the fold, a lazy class where the use says lazy=false came with the page; the chart shows its placeholder().
  t.is(await page.textContent('#lazy-card'), 'loaded')
  t.is(await page.textContent('#slow-chart'), 'Loading Sales…')
  t.true(await page.$eval('#slow-chart', (el) => el.classList.contains('skeleton')))
  await textIs(page, '#news-feed', 'Kiln news, mounted with {"topic":"Kiln"}')
  t.is(loads.filter((body) => body.includes('slow-chart')).length, 0, 'not loaded until scrolled into view')
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await textIs(page, '#slow-chart', 'Sales chart, mounted with {"title":"Sales"}')
})
