import test from 'ava'
import { TestClient } from '../../../../core/testing/index.ts'
import { compApp, endpointOf, snapshots, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { bundlingFiles } from './bundling.fixtures.ts'

type Entry = { fingerprint: PageSnapshot['fingerprint']; serverMemo: PageSnapshot['serverMemo']; updates?: unknown[]; calls?: unknown[] }
type Answer = {
  effects: { data: Record<string, unknown>; endpoint: string; dispatches: Array<{ name: string; delivered?: string[] }> }
  serverMemo: PageSnapshot['serverMemo']
}
type Batch = { components: Array<Answer & { error?: { status: number; message: string } }>; listeners: Array<Answer | null>; endpoint: string }

/** The page's snapshots by component name, and its update address. */
async function load(client: TestClient) {
  const html = await (await client.get('/', { accept: 'text/html' })).text()
  const byName = Object.fromEntries(snapshots(html).map((snapshot) => [snapshot.fingerprint.name, snapshot]))
  return { ...byName, endpoint: endpointOf(html) } as Record<'sender' | 'receiver' | 'bystander' | 'solo', PageSnapshot> & { endpoint: string }
}

function entry(snapshot: PageSnapshot, calls: Array<{ method: string; params?: unknown[] }> = [], updates: Array<[string, unknown]> = []): Entry {
  return { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates, calls: calls.map((call) => ({ params: [], ...call })) }
}

function post(client: TestClient, endpoint: string, body: unknown) {
  return client.json('POST', endpoint, body, { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' })
}

async function app(t: Parameters<typeof compApp>[0], config: Record<string, unknown> = {}) {
  return compApp(t, bundlingFiles, config)
}

test('a bundled request answers every component in order, with one fresh address that works for the next request', async (t) => {
  const { client } = await app(t)
  const page = await load(client)
  const res = await post(client, page.endpoint, { components: [entry(page.sender, [{ method: 'bump' }]), entry(page.receiver, [{ method: 'bump' }])] })
  t.is(res.status, 200)
  const body = (await res.json()) as Batch
  t.is(body.components.length, 2)
  t.is(body.components[0]!.effects.data.count, 1)
  t.is(body.components[1]!.effects.data.heard, 100)
  t.deepEqual(body.listeners, [])
  t.not(body.endpoint, page.endpoint)
  t.true(
    body.components.every((answer) => answer.effects.endpoint === body.endpoint),
    'one address per request',
  )
  const again = await post(client, body.endpoint, {
    components: [{ fingerprint: page.sender.fingerprint, serverMemo: body.components[0]!.serverMemo, updates: [], calls: [{ method: 'bump', params: [] }] }],
  })
  t.is(again.status, 200)
  t.is(((await again.json()) as Batch).components[0]!.effects.data.count, 2)
})

test('events reach the listeners sent with the request in the same answer, respecting to() and self(), and say whom they reached', async (t) => {
  const { client } = await app(t)
  const page = await load(client)
  const listeners = [entry(page.receiver), entry(page.bystander)]
  const sent = (await (await post(client, page.endpoint, { components: [entry(page.sender, [{ method: 'send', params: [2] }])], listeners })).json()) as Batch
  t.is(sent.listeners[0]!.effects.data.heard, 2)
  t.is(sent.listeners[1]!.effects.data.heard, 2)
  t.deepEqual(sent.components[0]!.effects.dispatches[0]!.delivered, [page.receiver.fingerprint.id, page.bystander.fingerprint.id])

  const to = (await (await post(client, sent.endpoint, { components: [entry(page.sender, [{ method: 'sendTo', params: [3] }])], listeners })).json()) as Batch
  t.is(to.listeners[0]!.effects.data.heard, 3)
  t.is(to.listeners[1], null, 'not the component to() names: untouched, its snapshot still current')
  t.deepEqual(to.components[0]!.effects.dispatches[0]!.delivered, [page.receiver.fingerprint.id])

  const self = (await (await post(client, to.endpoint, { components: [entry(page.sender, [{ method: 'sendSelf', params: [4] }])], listeners })).json()) as Batch
  t.deepEqual(self.listeners, [null, null])
  t.is(self.components[0]!.effects.dispatches[0]!.delivered, undefined)
})

test('one entry failing does not disturb the others: it answers its own status and message', async (t) => {
  const { client } = await app(t)
  const page = await load(client)
  const res = await post(client, page.endpoint, {
    components: [entry(page.sender, [{ method: 'deny' }]), entry(page.receiver, [{ method: 'bump' }]), entry(page.solo, [{ method: 'constructor' }])],
  })
  t.is(res.status, 200)
  const body = (await res.json()) as Batch
  t.deepEqual(body.components[0], { error: { status: 403, message: 'Not you.' } } as never)
  t.is(body.components[1]!.effects.data.heard, 100)
  t.true(body.components[2]!.error!.status >= 400 && body.components[2]!.error!.status < 500, JSON.stringify(body.components[2]))
})

test('a tampered or out-of-date entry refuses the whole request before anything runs', async (t) => {
  const { app: kiln, client } = await app(t)
  const page = await load(client)
  const runs = () => ((globalThis as Record<string, unknown>).__bundleMarks as number | undefined) ?? 0
  const before = runs()
  const forged = { ...page.receiver, serverMemo: { ...page.receiver.serverMemo, data: { heard: 1_000 } } }
  const tampered = await post(client, page.endpoint, { components: [entry(page.sender, [{ method: 'mark' }]), entry(forged)] })
  t.is(tampered.status, 403)
  const asListener = await post(client, page.endpoint, { components: [entry(page.sender, [{ method: 'mark' }])], listeners: [entry(forged)] })
  t.is(asListener.status, 403)

  const other = new TestClient(kiln)
  const foreign = await load(other)
  const expired = await post(client, page.endpoint, { components: [entry(page.sender, [{ method: 'mark' }]), entry(foreign.receiver)] })
  t.is(expired.status, 419)
  t.is(((await expired.json()) as { code: string }).code, 'E_COMP_EXPIRED')
  t.is(runs(), before, 'the valid entry did not run')
})

test('limits.max_components caps the entries, listeners included (422); a component twice is refused; prototype keys change nothing', async (t) => {
  const { client } = await app(t, { comp: { limits: { max_components: 2 } } })
  const page = await load(client)
  const three = await post(client, page.endpoint, { components: [entry(page.sender), entry(page.receiver), entry(page.bystander)] })
  t.is(three.status, 422)
  t.regex(((await three.json()) as { message: string }).message, /At most 2 components/)
  t.is((await post(client, page.endpoint, { components: [entry(page.sender)], listeners: [entry(page.receiver), entry(page.bystander)] })).status, 422)
  t.is((await post(client, page.endpoint, { components: [] })).status, 422)
  t.is((await post(client, page.endpoint, { components: { 0: entry(page.sender) } })).status, 422)
  t.is((await post(client, page.endpoint, { components: [entry(page.sender)], listeners: [entry(page.sender)] })).status, 422)

  const polluted = `{"components":[{"fingerprint":${JSON.stringify(page.sender.fingerprint)},"serverMemo":${JSON.stringify(page.sender.serverMemo)},"calls":[{"method":"bump","params":[]}],"__proto__":{"polluted":1}}],"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}`
  const res = await client.post(page.endpoint, polluted, {
    'content-type': 'application/json',
    accept: 'application/json',
    'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '',
  })
  // The body parser refuses prototype keys before the route sees them.
  t.is(res.status, 400)
  t.regex(((await res.json()) as { message: string }).message, /__proto__|constructor|prototype/i)
  t.is(({} as Record<string, unknown>).polluted, undefined)
  const proto = await post(client, page.endpoint, { components: [entry(page.sender, [{ method: '__proto__' }])] })
  t.true(((await proto.json()) as Batch).components[0]!.error!.status >= 400)
})

test('@isolate() and @async() reach the browser in the snapshot', async (t) => {
  const { client } = await app(t)
  const page = await load(client)
  t.true(page.solo.serverMemo.isolate)
  t.deepEqual(page.solo.serverMemo.async, ['track'])
  t.is(page.sender.serverMemo.isolate, undefined)
})
