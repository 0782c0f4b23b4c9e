import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

/** A search box bound with `static queryString`, and a finder bound with `@url()` options. */
const files: Record<string, string> = {
  ...component(
    'search',
    `import { Component } from 'kiln-framework/comp'
export default class Search extends Component {
  static queryString = ['q']
  q = ''
}
`,
    `<div><input id="q" wire:model.live="q"><span id="echo">{{q}}</span></div>`,
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

const query = (page: Page) => page.evaluate(() => location.search)

test('the query string follows bound properties with replaceState and is read on load', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/search?q=boots')
  t.is(await page.inputValue('#q'), 'boots')
  const length = await page.evaluate(() => history.length)
  await page.fill('#q', 'shoes')
  await page.waitForFunction(() => location.search === '?q=shoes')
  await page.fill('#q', '')
  await page.waitForFunction(() => location.search === '')
  t.is(await page.evaluate(() => history.length), length, 'replaceState: no history entries')
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
