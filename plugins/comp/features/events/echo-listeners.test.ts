import test from 'ava'
import { compApp, next, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { testComponent } from '../../testing.ts'
import { on } from './on.ts'

const files = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/orders/{id}', ({ params }) => view('page', { title: 'Order', id: Number(params.id) }))
})
`,
  'resources/views/page.hbs': "{{!< layouts/app}}\n{{{comp 'order-status' orderId=id}}}",
  'app/components/order-status.ts': `import { Component, on } from 'kiln-framework/comp'
export default class OrderStatus extends Component {
  orderId = 0
  team: { slug: string } | null = { slug: 'ops-1' }
  note: string | null = null
  status = 'paid'
  heard: unknown[] = []
  mount({ orderId }: { orderId: number }) { this.orderId = orderId }
  @on('echo-private:orders.{orderId},OrderShipped') shipped(carrier: string) { this.status = 'shipped by ' + carrier }
  @on('echo:teams.{team.slug},Published') published(data: unknown) { this.heard.push(data) }
  @on('echo-presence:orders.{orderId},here') here(members: unknown[]) { this.heard.push(members.length) }
  @on('echo-notification:users.{orderId}') notified(data: unknown) { this.heard.push(data) }
  @on('echo:notes.{note},Changed') changed() {}
  @on('refreshed') refreshed() {}
  render() { return '<p>{{status}}</p>' }
}
`,
}

test('echo listeners are listed with their placeholders filled from the state; a missing value leaves its listener out', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot } = await page(client, '/orders/5')
  t.deepEqual(snapshot.serverMemo.listeners, [
    'echo-private:orders.5,OrderShipped',
    'echo:teams.ops-1,Published',
    'echo-presence:orders.5,here',
    'echo-notification:users.5',
    'refreshed',
  ])
})

test('$event reaches an echo listener by its filled-in name only, with the data as named parameters', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/orders/5')
  const shipped = await update(client, endpoint, snapshot, {
    calls: [{ method: '$event', params: ['echo-private:orders.5,OrderShipped', { carrier: 'DHL' }] }],
  })
  t.is(shipped.status, 200)
  const body = await shipped.json()
  t.is(body.serverMemo.data.status, 'shipped by DHL')
  const after = next(snapshot, body)
  const here = await update(client, body.effects.endpoint, after, {
    calls: [{ method: '$event', params: ['echo-presence:orders.5,here', { members: [{ user_id: 1 }, { user_id: 2 }] }] }],
  })
  t.deepEqual((await here.json()).serverMemo.data.heard, [2])
  for (const name of ['echo-private:orders.6,OrderShipped', 'echo-private:orders.{orderId},OrderShipped', 'echo:notes.,Changed']) {
    const refused = await update(client, body.effects.endpoint, after, { calls: [{ method: '$event', params: [name, {}] }] })
    t.is(refused.status, 403, name)
  }
})

test('a page without the realtime server gives the browser no realtime client to load', async (t) => {
  const { client } = await compApp(t, files)
  const { html } = await page(client, '/orders/5')
  t.notRegex(html, /"rt":/)
})

test('malformed echo listener names are refused when the class is declared', (t) => {
  for (const name of ['echo-private:orders.1', 'echo:news', 'echo-notification:users.1,Extra', 'echo-secret:x,Y', 'echo:a b,C', 'echo:orders.1,{event}'])
    t.throws(() => on(name), { instanceOf: TypeError }, name)
  for (const name of ['echo-private:orders.{orderId},OrderShipped', 'echo-presence:chat,leaving', 'echo:news,.post.published', 'echo-notification:users.{id}'])
    t.notThrows(() => on(name), name)
})

test('testComponent delivers a broadcast to an echo listener as the browser does, by its filled-in name', async (t) => {
  const { client } = await compApp(t, files)
  await t.notThrowsAsync(
    testComponent(client, 'order-status', { orderId: 5 })
      .dispatch('echo-private:orders.5,OrderShipped', { carrier: 'DHL' })
      .assertSee('shipped by DHL')
      .dispatch('echo-private:orders.6,OrderShipped', { carrier: 'UPS' })
      .assertStatus(403),
  )
})
