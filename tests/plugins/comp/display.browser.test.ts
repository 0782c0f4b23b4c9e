import test from 'ava'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'
import { files } from './browser-components.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('wire:show, wire:text and wire:bind follow the state, locally first and from the server', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/display')
  t.false(await page.isVisible('#shown'))
  t.is(await page.textContent('#text'), 'hello')
  t.is(await page.getAttribute('#bound', 'class'), 'calm')
  t.is(await page.getAttribute('#bound', 'title'), 'hello')
  await page.click('#local')
  await page.waitForSelector('#shown', { state: 'visible' })
  await page.click('#toggle')
  await page.waitForSelector('#shown', { state: 'hidden' })
  t.deepEqual(errors, [])
})

test('$js actions run in the browser; js() from the server runs after the answer; $entangle ties Alpine data to a property', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/display')
  await page.click('#shout')
  await textIs(page, '#text', 'HELLO')
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  await page.click('#whisper')
  await textIs(page, '#text', 'psst')
  t.deepEqual(requests, [], 'wire:click="$js.whisper" runs in the browser, with no request')
  await page.click('#announce')
  await page.waitForFunction(() => document.body.dataset.announced === 'yes')
  await page.fill('#entangled', 'typed here')
  await textIs(page, '#text', 'typed here')
  t.is(await page.getAttribute('#bound', 'title'), 'typed here')
})

test('wire:offline and wire:online follow the connection', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/display')
  t.true(await page.isVisible('#online'))
  t.false(await page.isVisible('#offline'))
  await page.context().setOffline(true)
  await page.waitForSelector('#offline', { state: 'visible' })
  t.false(await page.isVisible('#online'))
  await page.context().setOffline(false)
  await page.waitForSelector('#online', { state: 'visible' })
})

test('wire:ref exposes the element as $el.__compRefs.<name> on the root', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/display')
  t.is(
    await page.evaluate(() => ((document.querySelector('[wire\\:id]') as unknown as { __compRefs: Record<string, Element> }).__compRefs.box as HTMLElement).id),
    'ref-target',
  )
})

test('wire:key keeps keyed elements through a reorder (the same nodes, moved); Alpine state survives a morph in place; wire:ignore subtrees are left alone', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/list')
  await page.evaluate(() => document.querySelectorAll('#keyed li').forEach((li) => ((li as unknown as { __seen: string }).__seen = li.textContent!)))
  const marks = await page.$$eval('#keyed li', (items) => items.map((li) => li.getAttribute('data-mark')))
  await page.evaluate(() => (document.getElementById('ignored-text')!.textContent = 'changed in the browser'))
  await page.click('#reverse')
  await page.waitForFunction(() => document.querySelector('#keyed li')?.textContent === 'c')
  t.deepEqual(
    await page.$$eval('#keyed li', (items) => items.map((li) => (li as unknown as { __seen?: string }).__seen)),
    ['c', 'b', 'a'],
    'the same elements, moved',
  )
  const after = await page.$$eval('#keyed li', (items) => items.map((li) => li.getAttribute('data-mark')))
  t.is(after[1], marks[1], 'the element that stayed in place kept its Alpine state')
  t.is(await page.textContent('#ignored-text'), 'changed in the browser')
})

test('wire:sort.order: dragging an item calls the method with the new order', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/list')
  await page.dragAndDrop('#sort-a', '#sort-c', { targetPosition: { x: 5, y: 30 } })
  await textIs(page, '#order', 'bca')
  t.deepEqual(await page.$$eval('#sortable li', (items) => items.map((li) => li.textContent)), ['b', 'c', 'a'])
})
