import test from 'ava'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'
import { files } from './browser-components.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('wire:click calls the method with parsed arguments; the HTML morphs; wire:text follows the state', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/counter')
  await page.click('#inc')
  await textIs(page, '#count', '1')
  await page.click('#add')
  await textIs(page, '#count', '6')
  t.is(await page.textContent('#last'), 'five')
  t.is(await page.textContent('#live'), '6')
  t.deepEqual(errors, [])
})

test('.renderless updates state without new HTML; $wire calls, $set and $refresh', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  await page.click('#quiet')
  await textIs(page, '#live', '100')
  t.is(await page.textContent('#count'), '0', 'the HTML was not re-rendered')
  await page.click('#wire-call')
  await textIs(page, '#count', '102')
  await page.click('#wire-set')
  await textIs(page, '#count', '42')
  const renders = Number(await page.textContent('#renders'))
  await page.click('#wire-refresh')
  await textIs(page, '#renders', String(renders + 1))
})

test('updates and calls within coalesce_ms go out as one request; actions during a request are queued, not dropped', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.postData() ?? ''))
  await page.evaluate(() => {
    const wire = (window as unknown as { Alpine: { $data(el: Element): { $wire: Record<string, (...a: unknown[]) => unknown> } } }).Alpine
    void wire
    for (const id of ['inc', 'inc', 'add']) (document.getElementById(id) as HTMLButtonElement).click()
  })
  await textIs(page, '#count', '7')
  t.is(posts.length, 1, 'three clicks in one frame: one request')
  t.is(JSON.parse(posts[0]!).calls.length, 3)
  await page.click('#slow')
  await page.click('#inc')
  await page.click('#inc')
  await textIs(page, '#count', '19')
})

test('wire:loading shows during requests (narrowed by wire:target); data-loading marks the trigger; .class adds classes', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  t.false(await page.isVisible('#loading'))
  t.false(await page.isVisible('#loading-slow'))
  // Hold the request until the test has looked at the page.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/comp/update**', async (route) => {
    await held
    await route.continue()
  })
  await page.click('#slow')
  await page.waitForSelector('#loading', { state: 'visible' })
  t.true(await page.isVisible('#loading-slow'))
  t.true(await page.$eval('#slow', (el) => el.hasAttribute('data-loading')))
  t.true(await page.$eval('#loading-class', (el) => el.classList.contains('busy')))
  release()
  await textIs(page, '#count', '10')
  await page.waitForSelector('#loading', { state: 'hidden' })
  t.false(await page.$eval('#slow', (el) => el.hasAttribute('data-loading')))
  t.false(await page.$eval('#loading-class', (el) => el.classList.contains('busy')))
  let releaseInc!: () => void
  const heldInc = new Promise<void>((resolve) => (releaseInc = resolve))
  await page.unroute('**/comp/update**')
  await page.route('**/comp/update**', async (route) => {
    await heldInc
    await route.continue()
  })
  await page.click('#inc')
  await page.waitForSelector('#loading', { state: 'visible' })
  t.false(await page.isVisible('#loading-slow'), 'wire:target="slow" ignores other actions')
  releaseInc()
  await textIs(page, '#count', '11')
})

test('wire:confirm asks first; declining sends nothing', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  page.once('dialog', (dialog) => void dialog.dismiss())
  await page.click('#confirm')
  await page.waitForTimeout(200)
  t.is(await page.textContent('#count'), '0')
  page.once('dialog', (dialog) => void (t.is(dialog.message(), 'Really?'), dialog.accept()))
  await page.click('#confirm')
  await textIs(page, '#count', '1')
})

test('.preserve-scroll keeps the scroll position across the update', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  const before = await page.evaluate(() => window.scrollY)
  t.true(before > 1000)
  await page.click('#scroll')
  await textIs(page, '#count', '1')
  t.is(await page.evaluate(() => window.scrollY), before)
})

test('wire:poll refreshes on its interval, and pauses while the tab is hidden; wire:init fires once; wire:intersect.once fires on scroll', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/poller')
  await page.waitForFunction(() => Number(document.getElementById('ticks')?.textContent) >= 2)
  await textIs(page, '#inits', '1')
  t.is(await page.textContent('#seen'), '0')
  // A string, not a function: the test runner's compiler would wrap a named getter in a helper the page does not have.
  await page.evaluate("Object.defineProperty(document, 'hidden', { configurable: true, get() { return true } })")
  await page.waitForTimeout(400)
  const paused = await page.textContent('#ticks')
  await page.waitForTimeout(900)
  t.is(await page.textContent('#ticks'), paused, 'no polls while hidden')
  await page.evaluate("Object.defineProperty(document, 'hidden', { configurable: true, get() { return false } })")
  await page.waitForFunction((before) => Number(document.getElementById('ticks')?.textContent) > Number(before), paused)
  await page.evaluate(() => document.getElementById('watched')!.scrollIntoView())
  await textIs(page, '#seen', '1')
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.evaluate(() => document.getElementById('watched')!.scrollIntoView())
  await page.waitForTimeout(300)
  t.is(await page.textContent('#seen'), '1', '.once')
  t.is(await page.textContent('#inits'), '1')
})
