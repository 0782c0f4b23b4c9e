import test from 'ava'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'
import { files } from './browser-components.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

const posts = (page: import('playwright-core').Page) => {
  const sent: Array<{ updates: Array<[string, unknown]>; calls: unknown[] }> = []
  page.on('request', (request) => request.method() === 'POST' && request.url().includes('/comp/update') && sent.push(JSON.parse(request.postData() ?? '{}')))
  return sent
}

test('wire:model.change syncs on change; .live as you type; .blur on blur; .live.blur locally at once and to the server on blur', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/form')
  const sent = posts(page)
  await page.fill('#title', 'Hello')
  await page.waitForTimeout(150)
  t.is(sent.length, 0, 'typing alone does not sync a wire:model.change')
  await page.dispatchEvent('#title', 'change')
  await page.waitForFunction(() => document.getElementById('syncs')?.textContent === '1')
  t.deepEqual(sent.at(-1)!.updates, [['title', 'Hello']])

  await page.type('#live', 'abc')
  await textIs(page, '#server-notes', 'abc')

  await page.fill('#blur', 'later')
  await page.waitForTimeout(150)
  t.is(await page.textContent('#server-lazy'), '')
  await page.focus('#title')
  await textIs(page, '#server-lazy', 'later')

  const before = sent.length
  await page.fill('#email', 'a@b')
  t.is(
    await page.evaluate(
      () => (window as unknown as { Alpine: { $data(el: Element): { email: string } } }).Alpine.$data(document.getElementById('email')!).email,
    ),
    'a@b',
    'the state follows as you type',
  )
  await page.waitForTimeout(150)
  t.is(sent.length, before, 'but nothing is sent before blur')
  await page.focus('#title')
  await textIs(page, '#server-email', 'a@b')
})

test('.debounce.300ms sends once the user pauses; checkboxes and selects sync typed values', async (t) => {
  const { page, open } = await env.newPage(t)
  // The page's clock is Playwright's: the debounce is counted in the page's own time, which stands still while the
  // keys arrive, so a loaded machine that delivers them slowly cannot split the request (CI once saw one per key).
  await page.clock.install()
  await open('/c/form')
  const sent = posts(page)
  const carrying = () => sent.filter((body) => body.updates.some(([path]) => path === 'slowField'))
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)
  await page.type('#debounce', 'slowly')
  await page.clock.runFor(299)
  // Give a request that should not exist the time to show.
  await page.waitForTimeout(100)
  t.is(carrying().length, 0, 'nothing before 300 ms without a key')
  await page.clock.resume()
  await textIs(page, '#server-slow', 'slowly')
  t.is(carrying().length, 1, 'one request once typing paused')
  t.deepEqual(
    carrying()[0]!.updates.find(([path]) => path === 'slowField'),
    ['slowField', 'slowly'],
  )
  await page.check('#agree')
  await textIs(page, '#server-agree', 'true')
  t.deepEqual(sent.at(-1)!.updates, [['agree', true]])
  await page.selectOption('#colour', 'blue')
  await textIs(page, '#server-colour', 'blue')
})

test('wire:submit prevents the page submission; validation errors show in the view and in $errors; wire:dirty shows unsynced changes', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/form')
  const url = page.url()
  t.false(await page.isVisible('#dirty'))
  await page.fill('#title', 'ab')
  await page.waitForSelector('#dirty', { state: 'visible' })
  await page.click('#submit')
  await textIs(page, '#title-error', 'Too short.')
  await textIs(page, '#alpine-error', 'Too short.')
  t.is(page.url(), url, 'no navigation')
  t.false(await page.isVisible('#dirty'), 'the change went through with the submit')
  await page.fill('#title', 'Long enough')
  await page.click('#submit')
  await textIs(page, '#saved', 'Long enough')
  t.is(await page.textContent('#title-error'), '')
  t.is(await page.textContent('#alpine-error'), '')
})

test('wire:dirty stays hidden through a later re-render once its change went through (the morph does not undo it)', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/form')
  await page.fill('#title', 'Hello')
  await page.waitForSelector('#dirty', { state: 'visible' })
  await page.dispatchEvent('#title', 'change')
  await textIs(page, '#syncs', '1')
  await page.waitForSelector('#dirty', { state: 'hidden' })
  // A call that carries no property changes: the server's HTML has no inline style on the element.
  await page.click('#submit')
  await textIs(page, '#saved', 'Hello')
  t.false(await page.isVisible('#dirty'))
})

test('focus and caret stay in an input while wire:model.live morphs the component around it', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/form')
  await page.click('#live')
  await page.keyboard.type('hello world')
  await textIs(page, '#server-notes', 'hello world')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.type('X')
  await textIs(page, '#server-notes', 'hello worXld')
  t.is(await page.evaluate(() => document.activeElement?.id), 'live')
  t.is(await page.$eval('#live', (el) => (el as HTMLInputElement).selectionStart), 10)
  t.is(await page.inputValue('#live'), 'hello worXld')
})
