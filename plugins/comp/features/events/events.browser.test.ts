import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'
import { counter } from '../../../../tests/plugins/comp/browser-components.ts'

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

/** A sender and a receiver, side by side with the kernel's counter (/c/pair). */
const files: Record<string, string> = {
  ...counter,
  ...component(
    'sender',
    `import { Component } from 'kiln-framework/comp'
export default class Sender extends Component {
  sent = 0
  send() { this.sent++; this.dispatch('pinged', { n: this.sent }) }
}
`,
    `<div><button id="send" wire:click="send">send</button><button id="client-send" x-on:click="$wire.$dispatch('pinged', { n: 100 })">client</button></div>`,
  ),
  ...component(
    'receiver',
    `import { Component, on } from 'kiln-framework/comp'
export default class Receiver extends Component {
  last = 0
  @on('pinged') heard(data: { n: number }) { this.last = data.n }
}
`,
    `<div><span id="heard">{{last}}</span></div>`,
  ),
  ...component(
    'pair',
    `import { Component } from 'kiln-framework/comp'
export default class Pair extends Component {}
`,
    `<div>{{{comp "sender"}}}{{{comp "receiver"}}}{{{comp "counter"}}}</div>`,
  ),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('dispatches reach @on listeners in other components and browser listeners; two components do not disturb each other', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/pair')
  await page.evaluate(() => window.addEventListener('pinged', (event) => (document.body.dataset.pinged = String((event as CustomEvent).detail.n))))
  await page.click('#send')
  await textIs(page, '#heard', '1')
  t.is(await page.evaluate(() => document.body.dataset.pinged), '1')
  await page.click('#client-send')
  await textIs(page, '#heard', '100')
  await page.click('#inc')
  await textIs(page, '#count', '1')
  t.is(await page.textContent('#heard'), '100', 'the counter did not touch the receiver')
})
