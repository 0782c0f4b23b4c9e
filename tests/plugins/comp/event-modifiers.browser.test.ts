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
  'app/components/listeners.ts': `import { Component } from 'kiln-framework/comp'
export default class Listeners extends Component {
  captured = 0
  bubbled = 0
  camel = 0
  dotted = 0
  passive = 0
  capture() { this.captured++ }
  bubble() { this.bubbled++ }
  camelCase() { this.camel++ }
  dot() { this.dotted++ }
  jump() { this.passive++ }
}
`,
  'resources/views/components/listeners.hbs': `<div>
  <div id="outer-capture" wire:click.capture="capture"><button id="stopped" x-on:click.stop>stop</button></div>
  <div id="outer-bubble" wire:click="bubble"><button id="stopped-too" x-on:click.stop>stop</button></div>
  <div id="camel" wire:custom-event.camel="camelCase"></div>
  <div id="dot" wire:custom-event.dot="dot"></div>
  <a id="jump" href="#jumped" wire:click.passive.prevent="jump">jump</a>
  <b id="counts">{{captured}} {{bubbled}} {{camel}} {{dotted}} {{passive}}</b>
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

test('.capture hears an event before a child stops it; without it the child stops it', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/listeners')
  await page.click('#stopped-too')
  await page.click('#stopped')
  await page.waitForFunction(() => document.querySelector('#counts')?.textContent === '1 0 0 0 0')
  t.is(await page.textContent('#counts'), '1 0 0 0 0')
})

test('.camel and .dot rename the kebab-case event an attribute names', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/listeners')
  await page.evaluate(() => {
    document.getElementById('camel')!.dispatchEvent(new CustomEvent('customEvent'))
    document.getElementById('dot')!.dispatchEvent(new CustomEvent('custom.event'))
  })
  await page.waitForFunction(() => document.querySelector('#counts')?.textContent === '0 0 1 1 0')
  // The kebab-case names are not heard: in one request with the renamed ones, they would count too.
  await page.evaluate(() => {
    for (const [id, name] of [
      ['camel', 'custom-event'],
      ['dot', 'custom-event'],
      ['camel', 'customEvent'],
      ['dot', 'custom.event'],
    ])
      document.getElementById(id!)!.dispatchEvent(new CustomEvent(name!))
  })
  await page.waitForFunction(() => document.querySelector('#counts')?.textContent === '0 0 2 2 0')
  t.is(await page.textContent('#counts'), '0 0 2 2 0')
  t.deepEqual(errors, [])
})

test('.passive listens passively: .prevent cannot stop the link', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/listeners')
  await page.click('#jump')
  await page.waitForFunction(() => document.querySelector('#counts')?.textContent === '0 0 0 0 1')
  t.is(await page.evaluate(() => location.hash), '#jumped')
})
