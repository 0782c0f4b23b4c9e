import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'
import { jsonFiles } from './json.fixtures.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp(jsonFiles)
})
test.after.always(() => env?.close())

test('await $wire.find() resolves with what the @json() action returned; the component does not render for it', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/title-search')
  await page.click('#find')
  await textIs(page, '#result', 'Clay,Glaze')
  t.is(await page.textContent('#calls'), '0', 'no render: the view still shows the count it was rendered with')
  t.deepEqual(errors, [])
})

test("a @json() action's validation failure rejects its promise with { status: 422, errors }, and $errors stay empty", async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/title-search')
  await page.fill('#name', 'ab')
  await page.click('#save')
  await textIs(page, '#result', '422:name')
  t.is(await page.evaluate(() => (window as unknown as { comp: { first(): { $errors: { any(): boolean } } } }).comp.first().$errors.any()), false)
  t.is(await page.textContent('#errors'), '')
})

test('a value JSON cannot carry rejects the promise with the status of the failure', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/title-search')
  await page.click('#broken')
  await textIs(page, '#result', 'rejected 500')
  t.pass()
})
