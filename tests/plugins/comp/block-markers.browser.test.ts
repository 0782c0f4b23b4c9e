import test from 'ava'
import type { Page, Route } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'

// A conditional paragraph before an unbound input and two buttons. The paragraph floats above them (absolute),
// so its coming and going moves nothing on screen: what the tests see is what the morph does to the DOM.
const files = {
  'app/components/sign-up.ts': `import { Component } from 'kiln-framework/comp'
export default class SignUp extends Component {
  problem = ''
  clicks = 0
  check() { this.problem = 'That name is taken.' }
  clear() { this.problem = '' }
  bump() { this.clicks++ }
}
`,
  'resources/views/components/sign-up.hbs': `<div style="position: relative; padding-top: 3em">
  {{#if problem}}<p class="error" style="position: absolute; top: 0; margin: 0">{{problem}}</p>{{/if}}
  <input id="name">
  <button id="check" type="button" wire:click="check">Check</button>
  <button id="clear" type="button" wire:click="clear">Clear</button>
  <button id="bump" type="button" wire:click="bump">Clicked {{clicks}}</button>
</div>`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

/** Tags the elements after the block, so a later check tells the same nodes from new ones. */
async function tag(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const id of ['name', 'check', 'clear', 'bump']) (document.getElementById(id) as HTMLElement & { __tag?: string }).__tag = id
  })
}

/** The ids of the tagged elements that are still the same nodes. */
async function kept(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    ['name', 'check', 'clear', 'bump'].filter((id) => (document.getElementById(id) as (HTMLElement & { __tag?: string }) | null)?.__tag === id),
  )
}

test('a paragraph that appears or goes away before them leaves the input (and what was typed) and the buttons as they were', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/sign-up')
  await page.fill('#name', 'Ada')
  await tag(page)

  await page.click('#check')
  await textIs(page, '.error', 'That name is taken.')
  t.is(await page.inputValue('#name'), 'Ada', 'what was typed in an unbound input stays')
  t.deepEqual(await kept(page), ['name', 'check', 'clear', 'bump'], 'the same nodes, patched, not new ones')

  await page.click('#clear')
  await page.waitForFunction(() => document.querySelector('.error') === null)
  t.is(await page.inputValue('#name'), 'Ada')
  t.deepEqual(await kept(page), ['name', 'check', 'clear', 'bump'])
  t.regex(await page.innerHTML('[wire\\:id]'), /<!--\[if BLOCK\]><!\[endif\]--><!--\[if ENDBLOCK\]><!\[endif\]-->/, 'an empty block keeps its markers')
  t.deepEqual(errors, [])
})

test('a click whose mouse went down before a delayed answer came, and up after, still counts', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/sign-up')
  await page.fill('#name', 'Ada')
  // The first update is held until the mouse button is down on another button.
  let hold: ((route: Route) => void) | undefined
  const held = new Promise<Route>((resolve) => {
    hold = (route) => {
      hold = undefined
      resolve(route)
    }
  })
  await page.route(/\/comp\/update/, (route) => (hold ? hold(route) : route.continue()))

  await page.click('#check')
  const route = await held
  const box = (await page.locator('#bump').boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await route.continue()
  await textIs(page, '.error', 'That name is taken.')
  await page.mouse.up()

  await textIs(page, '#bump', 'Clicked 1')
  t.is(await page.inputValue('#name'), 'Ada')
  t.deepEqual(errors, [])
})
