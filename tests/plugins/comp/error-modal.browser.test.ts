import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'

// A failed update in the browser: the error dialog shows the debug page of a crash, or a short message.
const files = {
  'app/components/kiln-oven.ts': `import { Component } from 'kiln-framework/comp'
export default class KilnOven extends Component {
  heat = 0
  warm() { this.heat += 100 }
  fire() {
    const degrees = 1300 // oven-source-marker
    throw new Error('The glaze ran at ' + degrees + ' degrees')
  }
  check() { this.validate() }
}
`,
  'resources/views/components/kiln-oven.hbs': `<div>
  <span id="heat">{{heat}}</span>
  <button id="warm" wire:click="warm">warm</button>
  <button id="fire" wire:click="fire">fire</button>
  <button id="unknown" wire:click="vanish">unknown</button>
  <button id="check" wire:click="check">check</button>
</div>`,
}

let debug: BrowserApp
let production: BrowserApp
test.before(async () => {
  debug = await browserApp(files, { env: { APP_DEBUG: 'true' } })
  production = await browserApp(files, { env: { APP_DEBUG: 'false' } })
})
test.after.always(async () => {
  await debug?.close()
  await production?.close()
})

/** The text of the page inside the dialog's frame, once it has some. */
async function frameText(page: Page): Promise<string> {
  const frame = await (await page.waitForSelector('#comp-error iframe')).contentFrame()
  await frame!.waitForSelector('body :is(h1, main, section, div)')
  return frame!.innerText('body')
}

test('debug mode: an action that throws shows the youch debug page in the dialog, with the exception’s message', async (t) => {
  const { page, open } = await debug.newPage(t)
  await open('/c/kiln-oven')
  await page.click('#fire')
  await page.waitForSelector('#comp-error', { state: 'visible' })
  const text = await frameText(page)
  t.regex(text, /The glaze ran at 1300 degrees/)
  t.regex(text, /oven-source-marker/, 'the source around the line that threw')
  const frame = (await (await page.$('#comp-error iframe'))!.contentFrame())!
  t.true((await frame.$$('.stack-frame')).length > 0, "youch's stack")
  t.true(await frame.isVisible('.stack-frame-app .frame-label'), 'the component’s frame is marked In App')
  t.false(await page.isVisible('#comp-error .comp-error-message'), 'the page, not a message')
  // Dismissible, and the component still works.
  await page.click('#comp-error button')
  t.false(await page.isVisible('#comp-error'))
  await page.click('#warm')
  await textIs(page, '#heat', '100')
})

test('debug mode: a documented Kiln error shows its code in the dialog, beside the message', async (t) => {
  const { page, open } = await debug.newPage(t)
  await open('/c/kiln-oven')
  await page.click('#check')
  await page.waitForSelector('#comp-error', { state: 'visible' })
  t.regex(await frameText(page), /KilnOven\.validate\(\) needs rules/)
  const frame = (await (await page.$('#comp-error iframe'))!.contentFrame())!
  t.is((await frame.textContent('h4.card-subtitle:text-is("code") + span'))?.trim(), 'E_COMP_NO_RULES')
})

test('debug mode: an unknown action shows a short readable message, not JSON', async (t) => {
  const { page, open } = await debug.newPage(t)
  await open('/c/kiln-oven')
  await page.click('#unknown')
  await page.waitForSelector('#comp-error .comp-error-message', { state: 'visible' })
  t.is(await page.textContent('#comp-error .comp-error-message'), 'The method "vanish" cannot be called on KilnOven.')
  t.regex((await page.textContent('#comp-error'))!, /failed \(403\)/)
  t.false(await page.isVisible('#comp-error iframe'))
  t.notRegex((await page.textContent('#comp-error'))!, /[{}]|"message"/, 'no JSON')
  await page.click('#comp-error button')
  await page.click('#warm')
  await textIs(page, '#heat', '100')
})

test('production: no dialog and no stack; the console says the update failed', async (t) => {
  const { page, open, errors } = await production.newPage(t)
  await open('/c/kiln-oven')
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes('/comp/update')), page.click('#fire')])
  t.is(response.status(), 500)
  t.deepEqual(await response.json(), { message: 'Server error.' })
  for (let waited = 0; waited < 5000 && !errors.some((line) => /the update failed \(500\)/.test(line)); waited += 20) await page.waitForTimeout(20)
  t.true(
    errors.some((line) => /the update failed \(500\)/.test(line)),
    JSON.stringify(errors),
  )
  t.false(errors.some((line) => /glaze|oven-source-marker/.test(line)))
  t.false(await page.isVisible('#comp-error'))
})
