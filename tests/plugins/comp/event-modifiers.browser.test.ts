import test from 'ava'
import { browserApp, type BrowserApp } from './browser-app.ts'

const files = {
  'app/components/menu.ts': `import { Component } from 'kiln-framework/comp'
export default class Menu extends Component {
  closed = 0
  saved = 0
  hits = 0
  close() { this.closed++ }
  save() { this.saved++ }
  hit() { this.hits++ }
}
`,
  'resources/views/components/menu.hbs': `<div>
  <div id="menu" wire:click.outside="close">inside <button id="inner">inner</button></div>
  <p id="out">outside</p>
  <span id="keys" wire:keydown.enter.window="save"></span>
  <button id="hit" wire:click.throttle.2s="hit">hit</button>
  <b id="closed">{{closed}}</b><b id="saved">{{saved}}</b><b id="hits">{{hits}}</b>
</div>`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('wire:click.outside fires for clicks outside the element only', async (t) => {
  const { page, open } = await env.newPage(t)
  let updates = 0
  page.on('request', (request) => request.url().includes('/comp/update') && updates++)
  await open('/c/menu')
  await page.click('#inner')
  await page.click('#menu')
  t.is(updates, 0, 'clicks inside send nothing')
  await page.click('#out')
  await page.waitForFunction(() => document.querySelector('#closed')?.textContent === '1')
  t.pass()
})

test('wire:keydown.enter.window hears keys pressed anywhere in the page', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/menu')
  await page.keyboard.press('Enter')
  await page.waitForFunction(() => document.querySelector('#saved')?.textContent === '1')
  t.pass()
})

test('wire:click.throttle.2s calls once for a burst of clicks', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/menu')
  // Five clicks dispatched in one task: well inside the 2 s window. Unthrottled, they would all go in one request and count 5.
  await page.evaluate(() => {
    for (let i = 0; i < 5; i++) document.querySelector<HTMLButtonElement>('#hit')!.click()
  })
  await page.waitForFunction(() => document.querySelector('#hits')?.textContent === '1')
  t.is(await page.textContent('#hits'), '1')
})
