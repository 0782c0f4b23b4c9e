import { AssertionError } from 'node:assert'
import { writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import test from 'ava'
import { ComponentTest, testComponent } from '../../../plugins/comp/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { REPO, run } from '../../core/cli/generators/generator-fixtures.ts'
import { compApp } from './comp-fixtures.ts'

// A component with something for every assertion: validation, a list, a nested object, events, a redirect.
const shopFiles = {
  'app/components/shop.ts': `import { Component } from 'kiln-framework/comp'
import { z } from 'zod'
export default class Shop extends Component {
  static rules = z.object({ title: z.string().min(3, 'The title needs at least 3 characters.'), qty: z.number().int().min(1, 'Order at least one.') })
  title = ''
  qty = 1
  items: string[] = []
  address = { city: 'Oslo', zip: '0150' }
  note = 'kept in the state only'
  add() {
    const { title } = this.validate()
    this.items.push(title)
    this.dispatch('item-added', { title, count: this.items.length })
    this.title = ''
  }
  checkout() { this.redirect('/checkout') }
}
`,
  'resources/views/components/shop.hbs':
    '<div class="shop"><ul>{{#each items}}<li>{{this}}</li>{{/each}}</ul><p class="error">{{error "title"}}</p><p class="city">{{address.city}}</p></div>',
  'resources/views/shop-page.hbs': "{{!< layouts/app}}\n@comp('shop')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/shop', () => view('shop-page', { title: 'Shop' })) })\n",
}

const failsWith = (message: RegExp) => ({ instanceOf: AssertionError, message })

test('a chain of real updates and assertions reads like Livewire, and resolves with the component', async (t) => {
  const { client } = await compApp(t, shopFiles)
  const shop = await testComponent(client, 'shop')
    .set('title', 'Tom & Jerry')
    .call('add')
    .assertHasNoErrors()
    .assertSet('items', ['Tom & Jerry'])
    .assertSet('address.city', 'Oslo')
    .assertSet('items', (items: unknown) => Array.isArray(items) && items.length === 1)
    .assertNotSet('title', 'Tom & Jerry')
    .assertCount('items', 1)
    .assertCount('address', 2)
    .assertSee('Tom & Jerry')
    .assertSee(['Oslo', 'Tom & Jerry'])
    .assertSeeHtml('<li>Tom &amp; Jerry</li>')
    .assertDontSeeHtml('<li>Tom & Jerry</li>')
    .assertDispatched('item-added')
    .assertDispatched('item-added', { title: 'Tom & Jerry' })
    .assertDispatched('item-added', (params) => params.count === 1)
    .assertNotDispatched('item-removed')
    .assertNoRedirect()
    .assertStatus(200)
  t.is(shop.get('items.0'), 'Tom & Jerry')
  // Sync assertions on the awaited component, chained into the next round trip.
  await shop.assertSee('Oslo').set({ title: 'ab', qty: 0 }).call('add').assertHasErrors().assertHasErrors('title').assertHasErrors(['title', 'qty'])
  shop
    .assertHasErrors({ title: 'at least 3', qty: [/one\.$/, 'Order'] })
    .assertHasNoErrors('address')
    .assertSee('The title needs at least 3 characters.')
  await shop.call('checkout').assertRedirect().assertRedirect('/checkout').assertRedirect(/check/).assertNotDispatched('item-added')
  await shop.call('mount').assertStatus(403).set('nope', 1).assertStatus(422).assertSet('items', ['Tom & Jerry'])
})

test('assertSee reads only what a visitor reads: not the snapshot, the id or the name', async (t) => {
  const { client } = await compApp(t, shopFiles)
  const shop = await testComponent(client, 'shop')
  t.regex(shop.html, /kept in the state only/, 'the state is in the snapshot attribute')
  shop.assertDontSee('kept in the state only').assertDontSee('shop"').assertDontSee(shop.id).assertSee('Oslo')
})

test('each assertion fails with what was there', async (t) => {
  const { client } = await compApp(t, shopFiles)
  const shop = await testComponent(client, 'shop').set('title', 'Milk & honey').call('add')
  t.throws(
    () => shop.assertSee('Bread'),
    failsWith(/^shop: Expected to see 'Bread' in the shop component, but it is not there\.\nThe HTML: <div class="shop"><ul><li>Milk &amp; honey<\/li>/),
  )
  t.throws(() => shop.assertSee(['Oslo', 'Bread']), failsWith(/Expected to see 'Bread'/))
  t.throws(
    () => shop.assertDontSee('Milk & honey'),
    failsWith(
      /Expected not to see 'Milk & honey' \(escaped: 'Milk &amp; honey'\) in the shop component, but it is there\.\nThe HTML: .*<li>Milk &amp; honey<\/li>/,
    ),
  )
  t.throws(() => shop.assertSeeHtml('<li>Milk & honey</li>'), failsWith(/Expected to see '<li>Milk & honey<\/li>' in the shop component, but it is not there/))
  t.throws(() => shop.assertDontSeeHtml('<p class="city">'), failsWith(/Expected not to see '<p class="city">'/))
  t.throws(
    () => shop.assertSet('address.city', 'Bergen'),
    failsWith(
      /Expected address\.city to be 'Bergen', but it is 'Oslo'\.\nThe state: \{ title: '', qty: 1, items: \[ 'Milk & honey' \], address: \{ city: 'Oslo', zip: '0150' \}/,
    ),
  )
  t.throws(() => shop.assertSet('items', () => false), failsWith(/Expected items to pass the given check, but it is \[ 'Milk & honey' \]/))
  t.throws(() => shop.assertNotSet('qty', 1), failsWith(/Expected qty not to be 1, but it is\.\nThe state: /))
  t.throws(() => shop.assertCount('items', 2), failsWith(/Expected items to hold 2 items, but it holds 1: \[ 'Milk & honey' \]/))
  t.throws(() => shop.assertCount('title', 1), failsWith(/Expected title to hold 1 item, but it is '', which is not a list/))
  t.throws(() => shop.assertHasErrors(), failsWith(/Expected validation errors, but there are none\.\nThe state: /))
  t.throws(
    () => shop.assertDispatched('item-removed'),
    failsWith(
      /Expected "item-removed" to be dispatched, but the last update dispatched \[ \{ name: 'item-added', params: \{ title: 'Milk & honey', count: 1 \} \} \]/,
    ),
  )
  t.throws(
    () => shop.assertDispatched('item-added', { count: 2 }),
    failsWith(/Expected "item-added" to be dispatched with \{ count: 2 \}, but the last update dispatched/),
  )
  t.throws(() => shop.assertDispatched('item-added', () => false), failsWith(/dispatched that passes the given check/))
  t.throws(
    () => shop.assertNotDispatched('item-added'),
    failsWith(/Expected "item-added" not to be dispatched, but the last update dispatched \[ \{ name: 'item-added'/),
  )
  t.throws(() => shop.assertRedirect(), failsWith(/Expected a redirect, but the last update did not redirect\./))
  t.throws(() => shop.assertStatus(403), failsWith(/Expected the last update to answer 403, but it answered 200\./))

  await shop.set('title', 'ab').call('add')
  t.throws(
    () => shop.assertHasNoErrors(),
    failsWith(/Expected no validation errors, but there are: \{ title: \[ 'The title needs at least 3 characters\.' \] \}/),
  )
  t.throws(() => shop.assertHasNoErrors(['qty', 'title']), failsWith(/Expected no validation errors for qty, title, but there are: \{ title: /))
  t.throws(
    () => shop.assertHasErrors('qty'),
    failsWith(/Expected a validation error for qty, but it has none\.\nThe errors: \{ title: \[ 'The title needs at least 3 characters\.' \] \}/),
  )
  t.throws(
    () => shop.assertHasErrors({ title: 'required' }),
    failsWith(
      /Expected an error for title from the rule 'required' or containing it, but its messages are \[ 'The title needs at least 3 characters\.' \], and the rules that failed are \[ 'min', 'min:3', 'too_small' \]\./,
    ),
  )
  t.throws(() => shop.assertHasErrors({ title: /^Required/ }), failsWith(/Expected an error for title matching \/\^Required\/, but its messages are/))
  t.throws(() => shop.assertDispatched('item-added'), failsWith(/but the last update dispatched no events\./))

  await shop.call('checkout')
  t.throws(() => shop.assertRedirect('/home'), failsWith(/Expected a redirect to '\/home', but it went to '\/checkout'\./))
  t.throws(() => shop.assertRedirect(/home/), failsWith(/Expected a redirect to an address matching \/home\/, but it went to '\/checkout'/))
  t.throws(() => shop.assertNoRedirect(), failsWith(/Expected no redirect, but the last update went to '\/checkout'\./))

  // A refused update is named beside every failure, and by assertStatus.
  await shop.call('mount')
  t.throws(() => shop.assertStatus(200), failsWith(/Expected the last update to answer 200, but it answered 403: 'The method "mount" cannot be called on Shop/))
  t.throws(() => shop.assertSet('qty', 5), failsWith(/\n\(The last update was refused: 403 'The method "mount" cannot be called/))
})

test('a failing step rejects the chain at the line that asked for it, and the steps after it do not run', async (t) => {
  const { client } = await compApp(t, shopFiles)
  const shop = await ComponentTest.visit(client, '/shop', 'shop')
  const error = await t.throwsAsync(
    shop.set('title', 'Bread').assertSet('title', 'Butter').call('add'),
    failsWith(/Expected title to be 'Butter', but it is 'Bread'/),
  )
  t.regex(
    error.stack ?? '',
    /^AssertionError[^\n]*: shop: Expected title[^\n]*\n[\s\S]*at [^\n]*test-assertions\.test\.ts:\d+/,
    'the stack points at this test file',
  )
  t.notRegex(error.stack ?? '', /pending-test\.ts/, 'not at the chain')
  shop.assertCount('items', 0).assertSet('title', 'Bread')
  await t.throwsAsync(testComponent(client, 'shop').call('add').assertHasNoErrors(), failsWith(/Expected no validation errors, but there are: \{ title: /))
})

test('a forgotten await cannot pass quietly: the chain runs anyway, and touching the component meanwhile throws', async (t) => {
  const { app } = await compApp(t, shopFiles)
  const shop = await testComponent(app, 'shop')
  const chain = shop.set('title', 'Soap').call('add')
  t.throws(() => shop.assertCount('items', 1), { code: 'E_COMP_TEST', message: /still has a set or call running: await it/ })
  t.throws(() => shop.get('items'), { code: 'E_COMP_TEST' })
  t.throws(() => shop.call('add'), { code: 'E_COMP_TEST' })
  // Never awaited, the chain still runs: the rendered HTML changes on its own.
  while (!shop.html.includes('<li>Soap</li>')) await new Promise((resolve) => setImmediate(resolve))
  t.is(await chain, shop)
  shop.assertCount('items', 1)
})

test('a chain nobody awaits still fails the test: closing the app waits for it and throws its failure', async (t) => {
  t.timeout(120_000)
  const forgetful = `import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createApp } from 'kiln-framework'
import { comp, testComponent } from 'kiln-framework/comp'
const root = fileURLToPath(new URL('../', import.meta.url))
test('forgets to await', async (t) => {
  const app = await createApp({ root, env: { APP_ENV: 'test' }, plugins: [comp()], config: { session: { driver: 'memory' } } })
  t.teardown(() => app.close())
  void testComponent(app, 'shop').call('checkout').assertNoRedirect()
  t.pass()
})
`
  const root = tempApp({ ...shopFiles, 'tests/forgetful.test.ts': forgetful })
  const config = join(root, 'ava.config.mjs')
  const files = [`${relative(REPO, root)}/tests/forgetful.test.ts`]
  writeFileSync(
    config,
    `export default ${JSON.stringify({ files, extensions: { ts: 'module' }, nodeArguments: ['--conditions=kiln-source', '--import=tsx'], workerThreads: false })}\n`,
  )
  const ava = await run(process.execPath, [join(REPO, 'node_modules/ava/entrypoints/cli.mjs'), '--config', config], REPO)
  const output = ava.stdout + ava.stderr
  t.is(ava.code, 1, output)
  t.regex(output, /forgets to await/, output)
  t.regex(output, /A component test chain was never awaited, and failed: /, output)
  t.regex(output, /shop: Expected no redirect, but the last update went to '\/checkout'\./, output)
})
