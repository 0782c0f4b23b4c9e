import test from 'ava'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'
import { files } from './browser-components.ts'

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('islands: an action inside an island updates only that island; $island() scopes calls', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/dashboard')
  const islands: unknown[] = []
  page.on('request', (request) => request.url().includes('/comp/update') && islands.push(JSON.parse(request.postData() ?? '{}').island))
  await page.click('#bump')
  await textIs(page, '#visits', '1')
  t.is(await page.textContent('#header'), 'v1', 'the rest of the component was not re-rendered')
  await page.click('#bump-island')
  await textIs(page, '#visits', '2')
  t.deepEqual(islands, ['stats', 'stats'])
})

test('lazy components load when scrolled into view; deferred ones right after the page paints', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/lazy-page')
  await textIs(page, '#deferred-card', 'deferred loaded')
  t.is(await page.$('#lazy-card'), null, 'not yet: it is below the fold, still its placeholder')
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await textIs(page, '#lazy-card', 'loaded')
})

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

test('uploads: progress events, the file reaches the property, and the component stores it', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/uploader')
  await page.setInputFiles('#file', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await page.waitForFunction(() => document.getElementById('file')?.dataset.done === 'yes')
  const progress = (await page.evaluate('window.__progress')) as number[]
  t.is(progress.at(-1), 100, JSON.stringify(progress))
  await textIs(page, '#photo-name', `me.png ${PNG.length}`)
  await page.click('#save')
  await page.waitForFunction(() => /^photos\/[\w-]+\.png$/.test(document.getElementById('stored')?.textContent ?? ''))
  t.pass()
})

test('uploads: a file the property refuses, before sending (too large) or after (its content is not an image), shows in $errors', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/uploader')
  await page.setInputFiles('#file', { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(65 * 1024, 1) })
  await textIs(page, '#photo-error', 'The file "huge.png" may not be larger than 64 KB.')
  await page.setInputFiles('#file', { name: 'page.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') })
  await textIs(page, '#photo-error', 'The content of "page.png" is not one of: image/png, image/jpeg.')
  await page.setInputFiles('#file', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await textIs(page, '#photo-name', `me.png ${PNG.length}`)
  t.is(await page.textContent('#photo-error'), '', 'a good file clears the message')
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
