import test from 'ava'
import { browserApp, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** Links and a redirect to an address the test types (/c/links). */
const files: Record<string, string> = {
  'app/components/links.ts': `import { Component } from 'kiln-framework/comp'
export default class Links extends Component {
target = ''
go() { this.redirect(this.target) }
}
`,
  'resources/views/components/links.hbs': `<div>
<a id="js-link" href="javascript:window.__pwned = 1" wire:navigate>js</a>
<a id="data-link" href="data:text/html,<script>alert(1)</script>" wire:navigate>data</a>
<input id="target" wire:model="target"><button id="go" wire:click="go">go</button>
</div>`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('this.redirect() refuses a javascript: address: the page stays, and no script runs', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/links')
  const url = page.url()
  await page.fill('#target', 'javascript:window.__pwned=1')
  const answer = page.waitForResponse((response) => response.url().includes('/comp/update'))
  await page.click('#go')
  t.is((await answer).status(), 400)
  await page.waitForTimeout(200)
  t.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined)
  t.is(page.url(), url)
  t.true(errors.some((line) => /400/.test(line)))
})
