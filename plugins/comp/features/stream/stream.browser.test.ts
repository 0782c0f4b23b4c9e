import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** Promises the test releases: the server's action waits on them. */
const gates = globalThis as unknown as { streamGate?: Promise<void> }

function gate(name: 'streamGate'): () => void {
  let release!: () => void
  gates[name] = new Promise((resolve) => (release = resolve))
  return release
}

/** A component streaming chunks into two targets (/c/streamer), then failing in another action. */
const files: Record<string, string> = {
  'app/components/streamer.ts': `import { Component } from 'kiln-framework/comp'
export default class Streamer extends Component {
  final = ''
  clicks = 0
  async write() {
    this.stream('answer', 'Hel')
    this.stream('status', 'thinking', { replace: true })
    await (globalThis as any).streamGate
    this.stream('answer', '<b>lo</b>')
    this.final = 'done'
  }
  async boom() { this.stream('answer', 'x'); await null; throw new Error('boom') }
  click() { this.clicks++ }
}
`,
  'resources/views/components/streamer.hbs': `<div>
  <p id="answer" wire:stream="answer"></p>
  <p id="status" wire:stream.replace="status">idle</p>
  <span id="final">{{final}}</span> <span id="clicks">{{clicks}}</span>
  <button id="write" wire:click="write">write</button>
  <button id="boom" wire:click="boom">boom</button>
  <button id="click" wire:click="click">click</button>
</div>`,
}

let env: BrowserApp
test.before(async () => (env = await browserApp(files)))
test.after.always(() => env?.close())

test('wire:stream shows an action chunks as text while it runs, then the final render', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/streamer')
  const release = gate('streamGate')
  await page.click('#write')
  // The action is still waiting on the gate: what shows came through the stream.
  await textIs(page, '#answer', 'Hel')
  await textIs(page, '#status', 'thinking')
  t.is(await page.textContent('#final'), '')
  release()
  await textIs(page, '#final', 'done')
  t.is(await page.locator('#answer b').count(), 0, 'chunks are text, never HTML')
  t.deepEqual(errors, [])
})

test('wire:stream: an error after the first chunk ends the request as a failed update, and the component still works', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/streamer')
  const failed = page.waitForEvent('console', (message) => /update failed \(500\)/.test(message.text()))
  await page.click('#boom')
  await textIs(page, '#answer', 'x')
  await failed
  await page.click('#click')
  await textIs(page, '#clicks', '1')
  t.true(
    errors.some((line) => /update failed \(500\)/.test(line)),
    errors.join('\n'),
  )
})
