import { AssertionError } from 'node:assert'
import test from 'ava'
import { ComponentTest, testComponent } from '../../../plugins/comp/index.ts'
import { compApp } from './comp-fixtures.ts'

// A board with its cards in order, a child badge shown while open, data from with() and a computed property.
const files = {
  'app/components/board.ts': `import { Component, computed } from 'kiln-framework/comp'
export default class Board extends Component {
  cards = ['Plan', 'Build', 'Ship']
  open = true
  hidden = 'only in the state'
  @computed()
  get count() { return this.cards.length }
  with() { return { heading: 'Roadmap & more' } }
  reverse() { this.cards = [...this.cards].reverse() }
  close() { this.open = false }
  rename() { this.cards = ['Plan'] }
}
`,
  'resources/views/components/board.hbs':
    "<div><h2>{{heading}}</h2><ol>{{#each cards}}<li>{{this}}</li>{{/each}}</ol><p>{{count}} cards</p>{{#if open}}@comp('badge', key='b'){{/if}}</div>",
  'app/components/badge.ts': `import { Component } from 'kiln-framework/comp'
export default class Badge extends Component { label = 'new' }
`,
  'resources/views/components/badge.hbs': '<span class="badge">{{label}}</span>',
  'app/components/search.ts': `import { Component, url } from 'kiln-framework/comp'
export default class Search extends Component {
  @url({ as: 'q' }) query = ''
  @url() tags: string[] = []
  theme = 'light'
  mount() { this.theme = this.ctx.cookies.get('theme') ?? 'light' }
}
`,
  'resources/views/components/search.hbs': '<div><p>{{query}}</p><p>{{theme}}</p></div>',
}

const failsWith = (message: RegExp) => ({ instanceOf: AssertionError, message })

test('assertSeeInOrder: the texts in that order, each escaped as the view escapes it', async (t) => {
  const { app } = await compApp(t, files)
  const board = await testComponent(app, 'board').assertSeeInOrder(['Plan', 'Build', 'Ship']).assertSeeInOrder(['Roadmap & more', 'Ship', '3 cards'])
  t.throws(
    () => board.assertSeeInOrder(['Ship', 'Plan']),
    failsWith(/^board: Expected to see 'Plan' after 'Ship' in the board component, but it is only before 'Ship'\.\nThe HTML: /),
  )
  t.throws(
    () => board.assertSeeInOrder(['Plan', 'Launch']),
    failsWith(/Expected to see 'Launch' after 'Plan' in the board component, but it is not there at all\./),
  )
  t.throws(() => board.assertSeeInOrder(['Launch']), failsWith(/Expected to see 'Launch' in the board component, but it is not there\./))
  await board.call('reverse').assertSeeInOrder(['Ship', 'Build', 'Plan'])
  t.throws(() => board.assertSeeInOrder(['Plan', 'Ship']), failsWith(/but it is only before 'Plan'/))
})

test('assertSeeComponent: a child by name, rendered now or kept from an earlier render; assertDontSeeComponent once it is gone', async (t) => {
  const { app } = await compApp(t, files)
  const board = await testComponent(app, 'board').assertSeeComponent('badge').assertDontSeeComponent('search')
  t.throws(
    () => board.assertSeeComponent('search'),
    failsWith(/^board: Expected the board component to render a "search" component, but it renders \[ 'badge' \]\./),
  )
  t.throws(
    () => board.assertDontSeeComponent('badge'),
    failsWith(/Expected the board component not to render a "badge" component, but it does: \[ 'badge' \]\./),
  )
  // The next render keeps the child as it is: only a placeholder in the HTML, the child in the snapshot.
  await board.call('rename').assertSeeComponent('badge')
  t.notRegex(board.html, /wire:name="badge"/)
  await board.call('close').assertDontSeeComponent('badge')
  t.throws(() => board.assertSeeComponent('badge'), failsWith(/but it renders none\./))
})

test('assertViewHas: the data the view rendered with, its with() data and computed values too, by value or by check', async (t) => {
  const { app } = await compApp(t, files)
  const board = await testComponent(app, 'board')
    .assertViewHas('heading', 'Roadmap & more')
    .assertViewHas('count', 3)
    .assertViewHas('cards', (cards: unknown) => Array.isArray(cards) && cards.length === 3)
    .assertViewHas('hidden')
    .call('rename')
    .assertViewHas('count', 1)
  t.throws(() => board.assertViewHas('count', 3), failsWith(/^board: Expected the view's count to be 3, but it is 1\./))
  t.throws(() => board.assertViewHas('cards', () => false), failsWith(/Expected the view's cards to pass the given check, but it is \[ 'Plan' \]/))
  t.throws(() => board.assertViewHas('titel'), failsWith(/Expected the view to have 'titel', but its data has: cards, open, hidden, errors, heading, count\./))
})

test('withQueryParams and withCookies set up the mount, as Livewire::withQueryParams()->test()', async (t) => {
  const { app, client } = await compApp(t, files)
  const search = await ComponentTest.withQueryParams({ q: 'kiln & clay', tags: ['a', 'b'] })
    .withCookies({ theme: 'dark' })
    .test(client, 'search')
    .assertSet('query', 'kiln & clay')
    .assertSet('tags', ['a', 'b'])
    .assertSet('theme', 'dark')
    .assertSee('kiln & clay')
  t.is(search.get('theme'), 'dark')
  // The cookie is sealed as the app seals its own: the client sends it encrypted.
  t.not(client.cookie('theme'), 'dark')
  // Without them, the defaults.
  const plain = await ComponentTest.withCookies({}).test(app, 'search').assertSet('query', '').assertSet('theme', 'light')
  t.deepEqual(plain.get('tags'), [])
  await t.throwsAsync(
    ComponentTest.withQueryParams({ q: 'x' }).test(app, 'search').assertSet('query', 'y'),
    failsWith(/Expected query to be 'y', but it is 'x'/),
  )
})

test('a forgotten await fails app.close() with the E_COMP_TEST error itself, not an AggregateError around it', async (t) => {
  const { app } = await compApp(t, files)
  void testComponent(app, 'board').call('reverse').assertSee('Launch')
  const error = await t.throwsAsync(() => app.close())
  t.is(error.name, 'KilnError')
  t.is((error as Error & { code?: string }).code, 'E_COMP_TEST')
  t.regex(error.message, /^A component test chain was never awaited, and failed: board: Expected to see 'Launch'/)
  t.true(error.cause instanceof AssertionError)
})
