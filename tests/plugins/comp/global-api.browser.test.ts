import test from 'ava'
import { browserApp, type BrowserApp } from './browser-app.ts'

const component = (name: string, source: string, view: string) => ({
  [`app/components/${name}.ts`]: source,
  [`resources/views/components/${name}.hbs`]: view,
})

const files = {
  ...component(
    'board',
    `import { Component, on } from 'kiln-framework/comp'
export default class Board extends Component {
  count = 0
  title = ''
  increment(by = 1) { this.count += by }
  @on('bumped') bumped() { this.count += 10 }
}
`,
    `<div><span id="count">{{count}}</span><input id="title" wire:model="title"><i id="dirty" x-text="$wire.$dirty() ? 'dirty' : 'clean'"></i>{{{comp "badge" key="b"}}}<b id="copy" wire:clipboard="copied">copy</b></div>`,
  ),
  ...component(
    'badge',
    `import { Component } from 'kiln-framework/comp'\nexport default class Badge extends Component { label = 'new' }\n`,
    `<em id="badge">{{label}}</em>`,
  ),
}

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files)
})
test.after.always(() => env?.close())

interface Wire {
  [key: string]: unknown
  $name: string
  $id: string
  $call(method: string, ...params: unknown[]): Promise<unknown>
  $commit(): Promise<unknown>
  $dirty(path?: string): boolean
}
interface CompGlobal {
  find(id: string): Wire | undefined
  first(): Wire | undefined
  all(): Wire[]
  getByName(name: string): Wire[]
  dispatch(name: string, params?: Record<string, unknown>): void
  dispatchTo(to: string, name: string, params?: Record<string, unknown>): void
  on(name: string, handler: (detail: unknown) => void): () => void
  directive(name: string, handler: (context: { el: Element; directive: { value: string }; component: Wire; cleanup(fn: () => void): void }) => void): void
}
declare const comp: CompGlobal

test('window.comp finds components by id, name, first and all, and $call calls an action with its parameters', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/board')
  const found = await page.evaluate(() => {
    const board = comp.getByName('board')[0]!
    return {
      all: comp.all().map((wire) => wire.$name),
      first: comp.first()?.$name,
      byId: comp.find(board.$id)?.$name,
      missing: comp.find('nope') === undefined,
      badges: comp.getByName('badge').length,
    }
  })
  t.deepEqual(found, { all: ['board', 'badge'], first: 'board', byId: 'board', missing: true, badges: 1 })
  await page.evaluate(() => comp.getByName('board')[0]!.$call('increment', 5))
  t.is(await page.textContent('#count'), '5')
})

test('comp.dispatch and comp.dispatchTo reach @on listeners; comp.on hears events and stops when told', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/board')
  await page.evaluate(() => {
    const seen: unknown[] = []
    ;(window as unknown as { seen: unknown[] }).seen = seen
    const stop = comp.on('bumped', (detail) => {
      seen.push(detail)
      stop()
    })
  })
  await page.evaluate(() => comp.dispatch('bumped', { by: 1 }))
  await page.waitForFunction(() => document.querySelector('#count')?.textContent === '10')
  await page.evaluate(() => comp.dispatchTo('badge', 'bumped'))
  await page.evaluate(() => comp.dispatchTo('board', 'bumped'))
  await page.waitForFunction(() => document.querySelector('#count')?.textContent === '20')
  t.deepEqual(await page.evaluate(() => (window as unknown as { seen: unknown[] }).seen), [{ by: 1 }], 'heard once, then stopped')
})

test('$wire.$dirty tells whether the component or a property has unsent changes', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/board')
  t.is(await page.textContent('#dirty'), 'clean')
  await page.fill('#title', 'Hello')
  await page.waitForFunction(() => document.querySelector('#dirty')?.textContent === 'dirty')
  t.deepEqual(
    await page.evaluate(() => {
      const board = comp.getByName('board')[0]!
      return [board.$dirty('title'), board.$dirty('count')]
    }),
    [true, false],
  )
  await page.evaluate(() => comp.getByName('board')[0]!.$commit())
  await page.waitForFunction(() => document.querySelector('#dirty')?.textContent === 'clean')
  t.pass()
})

test('comp.directive adds a wire:<name> directive with the element, its value, the component and a cleanup; built-in names are refused', async (t) => {
  const { page, open } = await env.newPage(t)
  await page.addInitScript(() => {
    document.addEventListener('comp:init', () => {
      comp.directive('clipboard', ({ el, directive, component }) => {
        el.addEventListener('click', () => el.setAttribute('data-copied', `${directive.value}:${String(component.$name)}`))
      })
    })
  })
  await open('/c/board')
  await page.click('#copy')
  t.is(await page.getAttribute('#copy', 'data-copied'), 'copied:board')
  const refused = await page.evaluate(() => {
    try {
      comp.directive('model', () => {})
      return 'accepted'
    } catch (error) {
      return (error as Error).message
    }
  })
  t.regex(refused, /"model" is taken/)
})
