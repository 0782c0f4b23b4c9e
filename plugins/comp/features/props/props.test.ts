import test from 'ava'
import type { TestClient } from '../../../../core/testing/index.ts'
import { compApp, endpointOf, snapshots, update, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { propsFiles } from './props.fixtures.ts'

type Answer = { effects: { html?: string; data: Record<string, unknown>; endpoint: string }; serverMemo: PageSnapshot['serverMemo'] }
type Batch = { components: Array<Answer & { error?: { status: number; message: string } }>; listeners: Array<Answer | null>; endpoint: string }
type Page = Record<'todo-list' | 'todo-count' | 'todo-input' | 'todo-stats', PageSnapshot> & { endpoint: string; html: string }

async function load(client: TestClient): Promise<Page> {
  const html = await (await client.get('/', { accept: 'text/html' })).text()
  return { ...Object.fromEntries(snapshots(html).map((snapshot) => [snapshot.fingerprint.name, snapshot])), endpoint: endpointOf(html), html } as Page
}

function entry(snapshot: PageSnapshot, calls: Array<{ method: string; params?: unknown[] }> = [], updates: Array<[string, unknown]> = []) {
  return { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates, calls: calls.map((call) => ({ params: [], ...call })) }
}

function listener(snapshot: PageSnapshot) {
  return { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo }
}

async function post(client: TestClient, endpoint: string, body: unknown): Promise<Batch> {
  const res = await client.json('POST', endpoint, body, { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' })
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(json)}`)
  return json as Batch
}

test('a reactive prop starts from the parent, and follows it when the parent renders in the same request', async (t) => {
  const { client } = await compApp(t, propsFiles)
  const page = await load(client)
  t.deepEqual(page['todo-count'].serverMemo.data.items, ['Milk'])
  t.deepEqual(page['todo-count'].serverMemo.props, ['items'])
  t.is(page['todo-count'].serverMemo.data.label, 'Todos')

  const added = await post(client, page.endpoint, { components: [entry(page['todo-list'], [{ method: 'add' }])], listeners: [listener(page['todo-count'])] })
  const child = added.listeners[0]!
  t.truthy(child, 'the child ran in the same request')
  t.deepEqual(child.effects.data.items, ['Milk', 'first'])
  t.regex(child.effects.html!, /<span id="count">2<\/span>/)
  t.is(child.effects.data.seen, '1->2', 'the update hooks ran around the change')

  // The parent renders again with the same items: the child's snapshot is still current, so it does not run.
  const list = { fingerprint: page['todo-list'].fingerprint, serverMemo: added.components[0]!.serverMemo }
  const count = { fingerprint: page['todo-count'].fingerprint, serverMemo: child.serverMemo }
  const touched = await post(client, added.endpoint, { components: [entry(list, [{ method: 'touch' }])], listeners: [listener(count)] })
  t.is(touched.listeners[0], null)
  t.is(touched.components[0]!.effects.data.touched, 1)
})

test('props come from the parent render on the server: a child alone, or sent before its parent, keeps its value', async (t) => {
  const { client } = await compApp(t, propsFiles)
  const page = await load(client)
  const before = await post(client, page.endpoint, {
    components: [entry(page['todo-count'], [{ method: '$refresh' }]), entry(page['todo-list'], [{ method: 'add' }])],
  })
  t.deepEqual(before.components[0]!.serverMemo.data.items, ['Milk'], 'the parent had not rendered yet')
  t.deepEqual(before.components[1]!.serverMemo.data.items, ['Milk', 'first'])
})

test('a reactive prop cannot be changed from the browser (403) nor by the component itself (E_COMP_REACTIVE_MUTATED)', async (t) => {
  const { client } = await compApp(t, propsFiles, { app: { debug: true } })
  const page = await load(client)
  const updated = await update(client, page.endpoint, page['todo-count'], { updates: [['items', []]] })
  t.is(updated.status, 403)
  t.regex((await updated.json()).message, /reactive/)
  const set = await update(client, page.endpoint, page['todo-count'], { calls: [{ method: '$set', params: ['items.0', 'x'] }] })
  t.is(set.status, 403)
  const mutated = await update(client, page.endpoint, page['todo-count'], { calls: [{ method: 'mutate' }] })
  t.is(mutated.status, 500)
  t.regex((await mutated.json()).message, /changed its reactive property "items"/)
})

test('a modelable child starts from the bound parent property and follows it when the parent renders in the same request', async (t) => {
  const { client } = await compApp(t, propsFiles)
  const page = await load(client)
  t.is(page['todo-input'].serverMemo.data.value, 'first')
  t.deepEqual(page['todo-input'].serverMemo.bindings, { outer: 'draft', inner: 'value', modifiers: ['live'] })
  t.regex(page.html, /wire:modelable\.live="draft"/)
  t.notRegex(page.html, /wire:model\.live="draft"/, 'the binding is not left as a parameter or a directive of the child')

  const cleared = await post(client, page.endpoint, {
    components: [entry(page['todo-list'], [{ method: 'clearDraft' }])],
    listeners: [listener(page['todo-count']), listener(page['todo-input'])],
  })
  t.is(cleared.listeners[0], null, 'the reactive child did not move')
  t.is(cleared.listeners[1]!.effects.data.value, '')
  // The child changes its own modelable property as it likes.
  const typed = await update(
    client,
    cleared.endpoint,
    { fingerprint: page['todo-input'].fingerprint, serverMemo: cleared.listeners[1]!.serverMemo },
    { updates: [['value', 'typed']] },
  )
  t.is(typed.status, 200)
})

test('listeners take the event data by parameter name; destructured and one-parameter listeners get the whole object', async (t) => {
  const { client } = await compApp(t, propsFiles)
  const page = await load(client)
  const added = await post(client, page.endpoint, { components: [entry(page['todo-list'], [{ method: 'add' }])], listeners: [listener(page['todo-stats'])] })
  const data = added.listeners[0]!.serverMemo.data
  t.is(data.last, 'first')
  t.is(data.done, 'default, (with) "text"', 'a parameter the data lacks keeps its default')
  t.is(data.whole, 'first')
  t.is(data.legacy, 'first')
  t.is(data.forbidden, 'none', 'a key named constructor never becomes a parameter')

  // From the browser: the body parser refuses "__proto__" and "constructor" keys before any listener runs.
  const send = (params: string) =>
    client.post(
      added.endpoint,
      `{"fingerprint":${JSON.stringify(page['todo-stats'].fingerprint)},"serverMemo":${JSON.stringify(page['todo-stats'].serverMemo)},"calls":[{"method":"$event","params":["todo-added",${params}]}]}`,
      { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' },
    )
  const res = await send('{"title":"Eggs","done":true}')
  t.is(res.status, 200)
  const json = (await res.json()) as Answer
  t.is(json.serverMemo.data.last, 'Eggs')
  t.is(json.serverMemo.data.done, 'true')
  t.is((await send('{"title":"Eggs","__proto__":{"polluted":1}}')).status, 400)
  t.is((await send('{"title":"Eggs","constructor":"boom"}')).status, 400)
  t.is(({} as Record<string, unknown>).polluted, undefined)
})
