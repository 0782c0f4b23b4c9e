import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

const files = {
  'app/components/helpers.ts': `import { Component } from 'kiln-framework/comp'
export default class Helpers extends Component {
  count = 0
  bump() { this.count++ }
  other() {}
}
`,
  'resources/views/components/helpers.hbs': `<div>
  <section id="outer" x-on:poke="$el.dataset.heard = 'bubbled'">
    <p class="target" id="first" x-on:poke="$el.textContent = 'poked ' + $event.detail.n"></p>
    <p class="target" id="second" x-on:poke="$el.textContent = 'poked ' + $event.detail.n"></p>
    <p id="noted" wire:ref="note" x-on:poke="$el.textContent = 'ref ' + $event.detail.n"></p>
  </section>
  <button id="bump" wire:click="bump">{{count}}</button>
</div>`,
}

type Wire = Record<string, (...args: unknown[]) => unknown>
declare const comp: { first(): Wire; interceptAction: Wire[string]; interceptMessage: Wire[string] }

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

test('$dispatchEl and $dispatchRef send a non-bubbling event to elements inside the component', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/helpers')
  await page.evaluate(() => comp.first().$dispatchEl('.target', 'poke', { n: 1 }))
  await textIs(page, '#first', 'poked 1')
  await textIs(page, '#second', 'poked 1')
  await page.evaluate(() => comp.first().$dispatchRef('note', 'poke', { n: 2 }))
  await textIs(page, '#noted', 'ref 2')
  t.is(await page.getAttribute('#outer', 'data-heard'), null, 'the events do not bubble')
  t.regex(
    await page.evaluate(() =>
      String(
        (() => {
          try {
            comp.first().$dispatchRef('nope', 'poke')
          } catch (e) {
            return (e as Error).message
          }
        })(),
      ),
    ),
    /no element with wire:ref="nope"/,
  )
  t.deepEqual(errors, [])
})

test('$effect re-runs when the state it reads changes', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/helpers')
  await page.evaluate(() => {
    const $wire = comp.first()
    $wire.$effect(() => void (document.title = `count ${String($wire.count)}`))
  })
  t.is(await page.title(), 'count 0')
  await page.click('#bump')
  await page.waitForFunction(() => document.title === 'count 1')
  t.pass()
})

test("$hook('commit'), $interceptMessage, $interceptRequest and comp.interceptAction / interceptMessage hear the component's requests", async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/helpers')
  await page.evaluate(() => {
    const log: string[] = ((window as unknown as { log: string[] }).log = [])
    const $wire = comp.first()
    $wire.$hook('commit', ({ commit, succeed }: { commit: { calls: Array<{ method: string }> }; succeed(cb: () => void): void }) =>
      succeed(() => log.push(`commit ${commit.calls.map((call) => call.method).join()}`)),
    )
    $wire.$interceptMessage('bump', ({ onSuccess }: { onSuccess(cb: () => void): void }) => onSuccess(() => log.push('message bump')))
    $wire.$interceptRequest('other', ({ onSuccess }: { onSuccess(cb: () => void): void }) => onSuccess(() => log.push('request other')))
    comp.interceptAction(({ action }: { action: { name: string } }) => log.push(`action ${action.name}`))
    comp.interceptMessage(({ onFinish }: { onFinish(cb: () => void): void }) => onFinish(() => log.push('finish')))
  })
  await page.click('#bump')
  await page.waitForFunction(() => (window as unknown as { log: string[] }).log.includes('finish'))
  t.deepEqual(await page.evaluate(() => (window as unknown as { log: string[] }).log), ['action bump', 'commit bump', 'message bump', 'finish'])
  await page.evaluate(() => comp.first().other())
  await page.waitForFunction(() => (window as unknown as { log: string[] }).log.filter((entry) => entry === 'finish').length === 2)
  t.deepEqual((await page.evaluate(() => (window as unknown as { log: string[] }).log)).slice(4), ['action other', 'request other', 'commit other', 'finish'])
})
