import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

/** A component with a child, for the $wire helpers: $get, $watch, $on, $dispatch, $parent. */
const files = {
  ...component(
    'magic',
    `import { Component } from 'kiln-framework/comp'
export default class Magic extends Component {
  count = 0
  increment() { this.count++ }
  shout() { this.dispatch('shouted', { n: this.count }) }
}
`,
    `<div><span id="count">{{count}}</span><button id="inc" wire:click="increment">+</button><button id="shout" wire:click="shout">shout</button>{{{comp "kid" key="k"}}}</div>`,
  ),
  ...component('kid', `import { Component } from 'kiln-framework/comp'\nexport default class Kid extends Component { age = 3 }\n`, `<p id="kid">{{age}}</p>`),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

/** Opens a component's page with `window.wire(name)` giving a component's `$wire`, and counts update requests. */
async function open(t: Parameters<BrowserApp['newPage']>[0], name: string): Promise<{ page: Page; updates: () => number }> {
  const { page, open } = await env.newPage(t)
  let updates = 0
  page.on('request', (request) => request.url().includes('/comp/update') && updates++)
  await page.addInitScript(() => {
    const w = window as unknown as { wire: (name: string) => unknown; Alpine: { evaluate(el: Element, expression: string): unknown } }
    w.wire = (name) => w.Alpine.evaluate(document.querySelector(`[wire\\:name="${name}"]`)!, '$wire')
  })
  await open(`/c/${name}`)
  return { page, updates: () => updates }
}

type Wire = Record<string, unknown> & { [helper: `$${string}`]: (...args: unknown[]) => unknown }
declare const wire: (name: string) => Wire

test('an unknown $wire.$name throws a clear error naming it and the helpers, and sends nothing', async (t) => {
  const { page, updates } = await open(t, 'magic')
  const before = updates()
  const message = await page.evaluate(() => {
    try {
      ;(wire('magic').$nope as () => void)()
      return 'no error'
    } catch (error) {
      return (error as Error).message
    }
  })
  t.regex(message, /^\$wire\.\$nope does not exist\. The \$ helpers are: .*\$set.*\$watch.*\$on.*\$parent/)
  await page.click('#inc')
  await textIs(page, '#count', '1')
  t.is(updates(), before + 1, 'only the click went to the server')
})

test('$get, $watch (value and old value), $on (server and browser events, unsubscribe) and $parent', async (t) => {
  const { page } = await open(t, 'magic')
  await page.evaluate(() => {
    const w = window as unknown as { seen: unknown[]; heard: unknown[]; off: () => void }
    w.seen = []
    w.heard = []
    wire('magic').$watch('count', (value: unknown, old: unknown) => w.seen.push([value, old]))
    w.off = wire('magic').$on('shouted', (detail: { n: number }) => w.heard.push(detail.n)) as () => void
  })
  await page.click('#inc')
  await page.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length === 1)
  t.deepEqual(await page.evaluate('window.seen'), [[1, 0]])
  t.is(await page.evaluate(() => wire('magic').$get('count')), 1)
  await page.click('#shout')
  await page.waitForFunction(() => (window as unknown as { heard: number[] }).heard.length === 1)
  const heard = await page.evaluate(() => {
    const w = window as unknown as { heard: number[]; off: () => void }
    wire('magic').$dispatch('shouted', { n: 7 })
    w.off()
    wire('magic').$dispatch('shouted', { n: 8 })
    return w.heard
  })
  t.deepEqual(heard, [1, 7], 'from the server, from the browser, and nothing once unsubscribed')
  t.deepEqual(
    await page.evaluate(() => [
      (wire('kid').$parent as unknown as Wire).count,
      wire('magic').$parent === undefined,
      (wire('kid').$parent as unknown as Wire).$name,
    ]),
    [1, true, 'magic'],
  )
})
