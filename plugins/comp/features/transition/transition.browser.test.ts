import test from 'ava'
import type { Page } from 'playwright-core'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'

/** One `document.startViewTransition()` call: its types, and the view-transition names before and inside the update. */
interface Call {
  types: string[]
  before: string[]
  after: string[] | null
}

const files: Record<string, string> = {
  'app/components/steps.ts': `import { Component, transition } from 'kiln-framework/comp'
export default class Steps extends Component {
  show = false
  fade = false
  step = 1
  count = 0
  toggle() { this.show = !this.show }
  toggleFade() { this.fade = !this.fade }
  bump() { this.count++ }
  @transition({ type: 'forward' }) next() { this.step++ }
  @transition({ type: 'backward' }) back() { this.step-- }
  jump(to: number) {
    this.transition({ type: to > this.step ? 'forward' : 'backward' })
    this.step = to
  }
  @transition({ skip: true }) restart() { this.step = 1 }
  quiet() {
    this.skipTransition()
    this.show = !this.show
  }
}
`,
  'resources/views/components/steps.hbs': `<div>
  <div>{{#if show}}<p id="note" wire:transition>Saved</p>{{/if}}</div>
  <div id="step" wire:transition="step">Step {{step}}</div>
  <div>{{#if fade}}<p id="fade" wire:transition.opacity>Faded</p>{{/if}}</div>
  <span id="count">{{count}}</span>
  <button id="toggle" wire:click="toggle">toggle</button>
  <button id="toggle-fade" wire:click="toggleFade">fade</button>
  <button id="bump" wire:click="bump">bump</button>
  <button id="next" wire:click="next">next</button>
  <button id="back" wire:click="back">back</button>
  <button id="jump" wire:click="jump(5)">jump</button>
  <button id="restart" wire:click="restart">restart</button>
  <button id="quiet" wire:click="quiet">quiet</button>
</div>`,
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

/**
 * Wraps the browser's startViewTransition, recording each call; the
 * transition still plays. (A string: the test runner's compiled functions
 * would call helpers the page lacks.)
 */
async function recordTransitions(page: Page): Promise<void> {
  // A block: its names stay out of the page's global scope.
  await page.addInitScript(`{
    window.__calls = []
    const start = document.startViewTransition.bind(document)
    const names = () => [...document.querySelectorAll('[wire\\\\:transition]')].map((el) => el.id + '=' + el.style.viewTransitionName)
    document.startViewTransition = (arg) => {
      const options = typeof arg === 'function' ? { update: arg } : arg
      const call = { types: [...(options.types ?? [])], before: names(), after: null }
      window.__calls.push(call)
      return start({ ...options, update: async () => { await options.update?.(); call.after = names() } })
    }
  }`)
}

const callsOf = (page: Page) => page.evaluate(() => (window as unknown as { __calls: Call[] }).__calls)

/** Waits until `n` transitions were started and the last one's update ran. */
const transitioned = (page: Page, n: number) =>
  page.waitForFunction((count) => {
    const calls = (window as unknown as { __calls: Call[] }).__calls
    return calls.length === count && calls[count - 1]!.after !== null
  }, n)

test('an update that adds, removes or changes a wire:transition element runs inside one view transition, with the names and types the server chose', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await recordTransitions(page)
  await open('/c/steps')
  t.deepEqual(await callsOf(page), [])

  // Adding the element: one transition, the morph inside it, a match-element name on the new element.
  await page.click('#toggle')
  await transitioned(page, 1)
  const [added] = await callsOf(page)
  t.deepEqual(added!.types, [])
  t.deepEqual(added!.before, ['step=step'], 'the named element is named before; the note is not there yet')
  t.deepEqual(added!.after, ['note=match-element', 'step=step'], 'the note is in the page, named, once the update ran')
  t.true(await page.isVisible('#note'))
  // The names are there only while a transition plays.
  await page.waitForFunction(() => document.getElementById('note')!.style.viewTransitionName === '')

  // Removing it: one more.
  await page.click('#toggle')
  await transitioned(page, 2)
  t.deepEqual((await callsOf(page))[1]!.after, ['step=step'])
  await page.waitForSelector('#note', { state: 'detached' })

  // An update that leaves every wire:transition element as it was: no transition.
  await page.click('#bump')
  await textIs(page, '#count', '1')
  t.is((await callsOf(page)).length, 2)

  // @transition({ type }) on the action: the type goes to the browser.
  await page.click('#toggle')
  await transitioned(page, 3)
  await page.click('#next')
  await transitioned(page, 4)
  await textIs(page, '#step', 'Step 2')
  const forward = (await callsOf(page))[3]!
  t.deepEqual(forward.types, ['forward'])
  t.deepEqual(forward.before, ['note=', 'step=step'], 'in a typed transition an unnamed element stays unnamed')
  await page.click('#back')
  await transitioned(page, 5)
  await textIs(page, '#step', 'Step 1')
  t.deepEqual((await callsOf(page))[4]!.types, ['backward'])

  // this.transition({ type }) inside the action.
  await page.click('#jump')
  await transitioned(page, 6)
  await textIs(page, '#step', 'Step 5')
  t.deepEqual((await callsOf(page))[5]!.types, ['forward'])

  // @transition({ skip: true }) and this.skipTransition(): the page changes with no transition.
  await page.click('#restart')
  await textIs(page, '#step', 'Step 1')
  await page.click('#quiet')
  await page.waitForSelector('#note', { state: 'detached' })
  t.is((await callsOf(page)).length, 6)
  t.deepEqual(errors, [])
})

test('no view transition for reduced motion, nor for the Alpine (modifier) form of wire:transition', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await recordTransitions(page)
  await open('/c/steps')

  // The modifier form is Alpine's x-transition: it plays, with no view transition.
  await page.click('#toggle-fade')
  await textIs(page, '#fade', 'Faded')
  await page.waitForFunction(() => !document.getElementById('fade')!.getAttribute('style'))

  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.click('#toggle')
  await textIs(page, '#note', 'Saved')
  await page.click('#next')
  await textIs(page, '#step', 'Step 2')
  t.deepEqual(await callsOf(page), [])
  t.deepEqual(errors, [])
})

test('the promise of an action resolves once the page shows its answer, also when a view transition applies it a frame later', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await recordTransitions(page)
  await open('/c/steps')
  const seen = await page.evaluate(async () => {
    const wire = (window as unknown as { Alpine: { evaluate(el: Element, expression: string): { toggle(): Promise<unknown> } } }).Alpine.evaluate(
      document.querySelector('[wire\\:name="steps"]')!,
      '$wire',
    )
    await wire.toggle()
    return document.getElementById('note')?.textContent ?? null
  })
  t.is(seen, 'Saved')
  t.is((await callsOf(page)).length, 1, 'it went through a view transition')
  t.deepEqual(errors, [])
})
