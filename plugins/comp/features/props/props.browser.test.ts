import test from 'ava'
import type { Page, Request } from 'playwright-core'
import { propsFiles } from './props.fixtures.ts'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

// The props feature's components, shown together at /c/p-page.
const { 'routes/web.ts': _routes, 'resources/views/home.hbs': _home, ...components } = propsFiles
const files: Record<string, string> = {
  ...components,
  'app/components/p-page.ts': "import { Component } from 'kiln-framework/comp'\nexport default class PPage extends Component {}\n",
  'resources/views/components/p-page.hbs': "<main>\n  @comp('todo-list')\n  @comp('todo-stats')\n</main>",
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files, { env: { APP_DEBUG: 'true' } })
})
test.after.always(() => env?.close())

type Body = { fingerprint?: { name: string }; components?: Array<{ fingerprint: { name: string } }>; listeners?: Array<{ fingerprint: { name: string } }> }

/** The update requests the page sends, as they go. */
function updates(page: Page): Request[] {
  const sent: Request[] = []
  page.on('request', (request) => request.method() === 'POST' && request.url().includes('/comp/update') && sent.push(request))
  return sent
}

const names = (entries: Array<{ fingerprint: { name: string } }> | undefined) => (entries ?? []).map((entry) => entry.fingerprint.name)

test('a parent changing a reactive prop re-renders the child in the same POST; an unchanged prop leaves the child alone', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/p-page')
  const sent = updates(page)
  await textIs(page, '#count', '1')
  const renders = await page.textContent('#renders')
  await page.click('#add')
  await textIs(page, '#count', '2')
  t.is(sent.length, 1, 'the child took the new prop in the parent’s request')
  const body = JSON.parse(sent[0]!.postData()!) as Body
  t.deepEqual(names(body.components), ['todo-list'])
  t.true(names(body.listeners).includes('todo-count'))

  await page.click('#touch')
  await textIs(page, '#touched', '1')
  await page.waitForFunction(() => document.querySelectorAll('[data-loading]').length === 0)
  t.is(sent.length, 2)
  t.is(await page.textContent('#count'), '2')
  t.is(await page.textContent('#renders'), String(Number(renders) + 1), 'rendered once, for the add; not for the touch')
  t.deepEqual(errors, [])
})

test('a child updated in the same tick as its parent, and queued first, still takes the parent’s new prop in the one POST', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/p-page')
  const sent = updates(page)
  await page.evaluate(() => {
    const Alpine = (window as unknown as { Alpine: { evaluate(el: Element, expression: string): unknown } }).Alpine
    Alpine.evaluate(document.querySelector('#count')!, '$wire.$refresh()')
    Alpine.evaluate(document.querySelector('#add')!, '$wire.add()')
  })
  await textIs(page, '#touched', '0')
  await page.waitForFunction(() => document.querySelectorAll('[data-loading]').length === 0)
  await textIs(page, '#count', '2')
  t.is(sent.length, 1)
  t.deepEqual(names((JSON.parse(sent[0]!.postData()!) as Body).components), ['todo-list', 'todo-count'], 'parents go first')
  t.deepEqual(errors, [])
})

test('a child changing its reactive prop is refused with 403', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/p-page')
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().includes('/comp/update')), page.click('#set-items')])
  t.is(response.status(), 403)
  t.regex(await response.text(), /reactive/)
  await page.click('#comp-error button')
  await page.click('#add')
  await textIs(page, '#count', '2')
  t.true(errors.some((error) => error.includes('403')))
})

test('a modelable child bound with wire:model keeps the parent in sync, both ways', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/p-page')
  t.is(await page.inputValue('#inner'), 'first', 'the child starts from the parent’s value')
  await page.fill('#inner', 'Bread')
  // wire:model.live on the child's tag: the parent's property is sent as the child changes.
  await textIs(page, '#draft', 'Bread')
  await page.click('#clear-draft')
  await textIs(page, '#draft', '')
  await page.waitForFunction(() => (document.querySelector('#inner') as HTMLInputElement).value === '')
  await page.fill('#inner', 'Jam')
  await textIs(page, '#draft', 'Jam')
  await page.click('#add')
  await textIs(page, '#count', '2')
  t.deepEqual(errors, [])
})

test('a listener receives the event data as named parameters, in the same POST as the action', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/p-page')
  const sent = updates(page)
  await page.click('#add')
  await textIs(page, '#last', 'first')
  await textIs(page, '#whole', 'first')
  await textIs(page, '#legacy', 'first')
  t.is(sent.length, 1)
  t.deepEqual(errors, [])
})
