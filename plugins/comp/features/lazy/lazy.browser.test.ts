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
