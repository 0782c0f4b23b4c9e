import test from 'ava'
import type { Page, Request } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** Components for these tests: each is served at /c/<name>. */
const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

const files: Record<string, string> = {
  ...component(
    'b-parent',
    `import { Component } from 'kiln-framework/comp'
export default class BParent extends Component {
  count = 0
  bump() { this.count++ }
  add(n: number) { this.count += n }
}
`,
    `<div id="parent"><span id="parent-count">{{count}}</span><button id="parent-bump" wire:click="bump">bump</button>{{{comp "b-child" key="child"}}}</div>`,
  ),
  ...component(
    'b-child',
    `import { Component } from 'kiln-framework/comp'
export default class BChild extends Component {
  count = 0
  bump() { this.count++ }
}
`,
    `<div id="child"><span id="child-count">{{count}}</span></div>`,
  ),
  ...component(
    'b-sender',
    `import { Component } from 'kiln-framework/comp'
export default class BSender extends Component {
  sent = 0
  send() { this.sent++; this.dispatch('pinged', { n: this.sent }) }
}
`,
    `<div id="sender"><span id="sent">{{sent}}</span><button id="send" wire:click="send">send</button></div>`,
  ),
  ...component(
    'b-receiver',
    `import { Component, on } from 'kiln-framework/comp'
export default class BReceiver extends Component {
  last = 0
  @on('pinged') heard(data: { n: number }) { this.last = data.n }
}
`,
    `<div id="receiver"><span id="heard">{{last}}</span></div>`,
  ),
  ...component(
    'b-solo',
    `import { Component, isolate, async } from 'kiln-framework/comp'
const gate = globalThis as unknown as { __held?: boolean; __gate?: Promise<void> }
@isolate()
export default class BSolo extends Component {
  count = 0
  tracked = 0
  bump() { this.count++ }
  async hold() { gate.__held = true; await gate.__gate; this.count += 10 }
  track() { this.tracked++ }
  @async() note() { this.tracked += 100 }
}
`,
    `<div id="solo"><span id="solo-count">{{count}}</span><span id="tracked">{{tracked}}</span>
<button id="hold" wire:click="hold">hold</button><button id="track" wire:click.async="track">track</button><button id="note" wire:click="note">note</button></div>`,
  ),
  ...component(
    'b-deferred',
    `import { Component } from 'kiln-framework/comp'
export default class BDeferred extends Component {
  static defer = true
  loaded = false
  mount() { this.loaded = true }
}
`,
    `<article class="deferred">{{#if loaded}}loaded{{/if}}</article>`,
  ),
  ...component(
    'b-deferred-page',
    `import { Component } from 'kiln-framework/comp'
export default class BDeferredPage extends Component {}
`,
    `<div>{{{comp "b-deferred" key="one"}}}{{{comp "b-deferred" key="two"}}}</div>`,
  ),
  ...component(
    'b-page',
    `import { Component } from 'kiln-framework/comp'
export default class BPage extends Component {}
`,
    `<div>{{{comp "b-parent"}}}{{{comp "b-sender"}}}{{{comp "b-receiver"}}}{{{comp "b-solo"}}}</div>`,
  ),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

/** The update requests the page sends, as they go. */
function updates(page: Page): Request[] {
  const sent: Request[] = []
  page.on('request', (request) => request.method() === 'POST' && request.url().includes('/comp/update') && sent.push(request))
  return sent
}

/** Calls an action through `$wire` of the component whose root matches `selector`; true when the call resolved with no answer. */
function callUnanswered(page: Page, selector: string, method: string, ...params: unknown[]): Promise<boolean> {
  return page.evaluate(
    async ([s, m, p]) => {
      const Alpine = (window as unknown as { Alpine: { evaluate(el: Element, expression: string): Record<string, (...a: unknown[]) => Promise<unknown>> } })
        .Alpine
      const $wire = Alpine.evaluate(document.querySelector(s as string)!, '$wire')
      return (await $wire[m as string]!(...(p as unknown[]))) === undefined
    },
    [selector, method, params] as const,
  )
}

test('a parent and its child updated in one tick travel in one POST, and both re-render', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/b-page')
  const sent = updates(page)
  await page.click('#parent-bump')
  await textIs(page, '#parent-count', '1')
  await page.waitForFunction(() => document.querySelectorAll('[data-loading]').length === 0)
  await page.evaluate(() => {
    const Alpine = (window as unknown as { Alpine: { evaluate(el: Element, expression: string): unknown } }).Alpine
    Alpine.evaluate(document.querySelector('#parent')!, '$wire.add(2)')
    Alpine.evaluate(document.querySelector('#child')!, '$wire.bump()')
  })
  await textIs(page, '#parent-count', '3')
  await textIs(page, '#child-count', '1')
  // The first bump went alone (nothing else was queued in its tick); the later tick's two components went together.
  t.is(sent.length, 2)
  const body = JSON.parse(sent[1]!.postData()!) as { components: Array<{ fingerprint: { name: string } }> }
  t.deepEqual(
    body.components.map((entry) => entry.fingerprint.name),
    ['b-parent', 'b-child'],
  )
  t.deepEqual(errors, [])
})

test('a bundle that would pass limits.max_payload_bytes is split into requests below it', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/b-page')
  const sent = updates(page)
  await page.evaluate(() => {
    const w = window as unknown as { __COMP__: { maxPayloadBytes: number }; Alpine: { evaluate(el: Element, expression: string): unknown } }
    // Beside the 64 KB kept for listeners, room for one body at a time: each goes alone.
    w.__COMP__.maxPayloadBytes = 64_001
    w.Alpine.evaluate(document.querySelector('#child')!, '$wire.bump()')
    w.Alpine.evaluate(document.querySelector('#receiver')!, '$wire.$refresh()')
  })
  await textIs(page, '#child-count', '1')
  await page.waitForFunction(() => document.querySelectorAll('[data-loading]').length === 0)
  t.is(sent.length, 2)
  t.true(sent.every((request) => !('components' in JSON.parse(request.postData()!))))
  t.deepEqual(errors, [])
})

test('an event from one component to another costs one POST, and the listener re-renders', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/b-page')
  const sent = updates(page)
  await page.click('#send')
  await textIs(page, '#heard', '1')
  await textIs(page, '#sent', '1')
  await page.click('#send')
  await textIs(page, '#heard', '2')
  t.is(sent.length, 2, 'one POST per click, the listener answered in it')
  const body = JSON.parse(sent[0]!.postData()!) as { listeners: Array<{ fingerprint: { name: string } }> }
  t.deepEqual(
    body.listeners.map((entry) => entry.fingerprint.name),
    ['b-receiver'],
    'only components that listen go along; the isolated one does not',
  )
  t.deepEqual(errors, [])
})

test('@isolate(): the component updated in the same tick as another goes in its own POST', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/b-page')
  const sent = updates(page)
  await page.evaluate(() => {
    const Alpine = (window as unknown as { Alpine: { evaluate(el: Element, expression: string): unknown } }).Alpine
    Alpine.evaluate(document.querySelector('#parent')!, '$wire.bump()')
    Alpine.evaluate(document.querySelector('#solo')!, '$wire.bump()')
  })
  await textIs(page, '#parent-count', '1')
  await textIs(page, '#solo-count', '1')
  t.is(sent.length, 2)
  const names = sent.map((request) => {
    const body = JSON.parse(request.postData()!) as { fingerprint?: { name: string }; components?: Array<{ fingerprint: { name: string } }> }
    return body.components ? body.components.map((entry) => entry.fingerprint.name) : [body.fingerprint!.name]
  })
  t.deepEqual(names.sort(), [['b-parent'], ['b-solo']])
  t.deepEqual(errors, [])
})

test('deferred components load in requests of their own, as isolated ones do', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  const sent = updates(page)
  await open('/c/b-deferred-page')
  await page.waitForFunction(() => [...document.querySelectorAll('.deferred')].every((el) => el.textContent === 'loaded'))
  t.is(sent.length, 2)
  t.true(sent.every((request) => JSON.parse(request.postData()!).calls[0].method === '$load'))
  t.deepEqual(errors, [])
})

test('.async and @async() calls run while another request of the component is held on the server', async (t) => {
  const gate = globalThis as unknown as { __held?: boolean; __gate?: Promise<void> }
  let release!: () => void
  gate.__held = false
  gate.__gate = new Promise((resolve) => (release = resolve))
  t.teardown(() => release())
  const { page, open, errors } = await env.newPage(t)
  await open('/c/b-page')
  const sent = updates(page)
  await page.click('#hold')
  while (!gate.__held) await new Promise((resolve) => setTimeout(resolve, 10))
  await page.click('#track')
  await textIs(page, '#tracked', '1')
  await page.click('#note')
  await textIs(page, '#tracked', '101')
  t.is(await page.textContent('#solo-count'), '0', 'the held request has not answered yet')
  release()
  await textIs(page, '#solo-count', '10')
  t.is(sent.length, 3)
  t.deepEqual(errors, [])
})

test("request hooks: comp.hook('request') and comp.interceptRequest see, change and cancel requests; $wire.$intercept per action", async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/b-page')
  const sent = updates(page)
  await page.evaluate(() => {
    const w = window as unknown as { comp: Record<string, (...args: any[]) => any>; __seen: string[] }
    w.__seen = []
    w.comp.hook!('request', ({ options, succeed }: { options: { headers: Record<string, string> }; succeed(cb: (v: { status: number }) => void): void }) => {
      options.headers['x-tab'] = 'tab-1'
      succeed(({ status }) => w.__seen.push(`succeed ${status}`))
    })
    w.comp.interceptRequest!(({ request, onSend, onFinish }: any) => {
      // The single form, or the first entry of a bundle (listening components may go along).
      const calls = (request.payload.components?.[0] ?? request.payload).calls as Array<{ method: string; params: unknown[] }> | undefined
      if (calls?.[0]?.method === 'add') calls[0].params = [5]
      if (calls?.[0]?.method === 'bump' && request.components[0].name === 'b-child') request.cancel()
      onSend(() => w.__seen.push('send'))
      onFinish(() => w.__seen.push('finish'))
    })
  })
  t.false(await callUnanswered(page, '#parent', 'add', 1))
  await textIs(page, '#parent-count', '5')
  t.is(sent[0]!.headers()['x-tab'], 'tab-1')
  t.deepEqual(await page.evaluate('window.__seen'), ['send', 'succeed 200', 'finish'])

  // Cancelled by the request interceptor: nothing is sent, the call resolves with nothing.
  t.true(await callUnanswered(page, '#child', 'bump'))
  t.is(sent.length, 1)

  // Per component and per action: $intercept sees its phases, and may cancel the action before it is queued.
  await page.evaluate(() => {
    const w = window as unknown as { Alpine: { evaluate(el: Element, expression: string): any }; __actions: string[] }
    w.__actions = []
    const $wire = w.Alpine.evaluate(document.querySelector('#parent')!, '$wire')
    $wire.$intercept('bump', ({ action, onSend, onSuccess, onFinish }: any) => {
      if (action.params.length > 0) return action.cancel()
      onSend(() => w.__actions.push(`send ${action.name}`))
      onSuccess(() => w.__actions.push('success'))
      onFinish(() => w.__actions.push('finish'))
    })
    $wire.$intercept(({ action }: any) => w.__actions.push(`any ${action.name}`))
  })
  await page.click('#parent-bump')
  await textIs(page, '#parent-count', '6')
  await page.waitForFunction(() => (window as unknown as { __actions: string[] }).__actions.includes('finish'))
  t.deepEqual(await page.evaluate('window.__actions'), ['any bump', 'send bump', 'success', 'finish'])
  t.true(await callUnanswered(page, '#parent', 'bump', 1))
  t.is(sent.length, 2, 'the cancelled action sent nothing')
  t.deepEqual(errors, [])
})
