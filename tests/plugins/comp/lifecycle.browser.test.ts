import test from 'ava'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'
import { files } from './browser-components.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('a parent re-render keeps its child component, DOM and state', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/parent')
  await page.click('#inc')
  await page.click('#inc')
  await textIs(page, '#count', '2')
  await page.click('#relabel')
  await textIs(page, '#parent-label', 'p1!')
  t.is(await page.textContent('#count'), '2')
  await page.click('#inc')
  await textIs(page, '#count', '3')
})

test('a 300 KB state makes the round trip', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/big')
  await page.click('#again')
  await textIs(page, '#rounds', '1')
  await page.click('#again')
  await textIs(page, '#rounds', '2')
  t.is(await page.textContent('#length'), '300000')
})

test('a 419 fetches a fresh CSRF token once and retries without a dialog', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  // The session's token changes behind the page's back (a login in another tab).
  await page.evaluate(() => {
    ;(window as unknown as { __COMP__: { csrf: string } }).__COMP__.csrf = 'stale-token'
    document.querySelector('meta[name="csrf-token"]')!.setAttribute('content', 'stale-token')
  })
  let dialogs = 0
  page.on('dialog', (dialog) => (dialogs++, void dialog.dismiss()))
  const statuses: number[] = []
  page.on('response', (response) => response.url().includes('/comp/update') && statuses.push(response.status()))
  await page.click('#inc')
  await textIs(page, '#count', '1')
  t.deepEqual(statuses, [419, 200])
  t.is(dialogs, 0)
  t.false(await page.isVisible('#comp-expired'))
})

test('errors: the debug overlay in debug mode (dismissible), the console in production; the component stays usable', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/counter')
  let fail = true
  await page.route('**/comp/update**', (route) => (fail ? route.fulfill({ status: 500, body: '<h1>Boom</h1>', contentType: 'text/html' }) : route.continue()))
  await page.click('#inc')
  // Polled, not slept: on a loaded machine the console line can take longer than any fixed wait.
  const failedLine = () => errors.some((line) => /the update failed \(500\)/.test(line))
  for (let waited = 0; waited < 5000 && !failedLine(); waited += 20) await page.waitForTimeout(20)
  t.true(failedLine(), JSON.stringify(errors))
  t.false(await page.isVisible('#comp-error'), 'no overlay outside debug mode')
  fail = false
  await page.click('#inc')
  await textIs(page, '#count', '1')

  await page.evaluate(() => ((window as unknown as { __COMP__: { debug: boolean } }).__COMP__.debug = true))
  fail = true
  await page.click('#inc')
  await page.waitForSelector('#comp-error', { state: 'visible' })
  await page.click('#comp-error button')
  t.false(await page.isVisible('#comp-error'))
})
