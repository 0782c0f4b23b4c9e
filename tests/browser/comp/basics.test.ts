import test from 'ava'
import { browserApp } from './browser-app.ts'

const counter = {
  'app/components/counter.ts': `import { Component } from 'kiln/comp'
export default class Counter extends Component {
  count = 0
  increment() { this.count++ }
  add(amount: number, label: string) { this.count += amount; this.last = label }
  last = ''
  render() { return '<div><span id="count">{{count}}</span> <span id="last">{{last}}</span><button id="inc" wire:click="increment">+</button><button id="add" wire:click="add(5, \\'five\\')">+5</button></div>' }
}
`,
}

test('wire:click calls the server method; arguments are parsed; the HTML morphs; no console errors', async (t) => {
  const { page, open, errors } = await browserApp(t, counter)
  await open('/c/counter')
  await page.click('#inc')
  await page.waitForFunction(() => document.getElementById('count')?.textContent === '1')
  await page.click('#add')
  await page.waitForFunction(() => document.getElementById('count')?.textContent === '6')
  t.is(await page.textContent('#last'), 'five')
  t.deepEqual(errors, [])
})
