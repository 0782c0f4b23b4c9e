import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** A single-file counter: the class and its template in one .ts file, no .hbs; an island and a wire:model inside the template. */
const files: Record<string, string> = {
  'app/components/counter.ts': `import { Component, html } from 'kiln-framework/comp'
export default class Counter extends Component {
  count = 0
  step = 1
  visits = 0
  increment() { this.count += this.step }
  visit() { this.visits++ }
  static template = html\`
    <div>
      <button id="plus" wire:click="increment">+</button>
      <input id="step" type="number" wire:model.live="step">
      <span id="count">{{count}}</span>
      <span id="doubled" x-text="\\\`double: \\\${$wire.count * 2}\\\`"></span>
      {{#island "visits"}}<button id="visit" wire:click="visit">visit</button> <b id="visits">{{visits}}</b>{{/island}}
    </div>
  \`
}
`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('a single-file counter renders its static template and updates when clicked in the browser', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/counter')
  t.is(await page.textContent('#count'), '0')
  await page.click('#plus')
  await textIs(page, '#count', '1')
  await page.click('#plus')
  await textIs(page, '#count', '2')
  // An Alpine template literal written with \${ in the tagged template reaches the browser as \${.
  await textIs(page, '#doubled', 'double: 4')
  await page.fill('#step', '5')
  await page.click('#plus')
  await textIs(page, '#count', '7')
  // An island of the template updates on its own.
  await page.click('#visit')
  await textIs(page, '#visits', '1')
  t.is(await page.textContent('#count'), '7')
  t.deepEqual(errors, [])
})
