import test from 'ava'
import { compApp, counterFiles, next, page, update } from './comp-fixtures.ts'

test('a page with @comp renders the component with wire:id, wire:name and wire:snapshot, and @compScripts prints the boot configuration', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const { html, snapshot } = await page(client, '/')
  t.regex(html, /<div wire:id="[A-Za-z0-9]+" wire:name="counter" wire:snapshot="[^"]+" class="counter"><span>5<\/span>/)
  t.deepEqual(snapshot.fingerprint.name, 'counter')
  t.deepEqual(snapshot.serverMemo.data, { count: 5, step: 1 }, 'public fields only: no _secret')
  t.deepEqual(snapshot.serverMemo.errors, {})
  t.regex(snapshot.serverMemo.checksum, /^[a-f0-9]{64}$/)
  t.regex(html, /<meta name="comp-endpoint" content="\/comp\/update\?n=[\w-]+&amp;s=[\w-]{22}&amp;expires=\d+&amp;signature=[a-f0-9]{64}">/)
  t.regex(html, /<meta name="comp-base" content="">/)
  t.regex(
    html,
    /window\.__COMP__ = \{"base":"","endpoint":"\/comp\/update\?n=[\w-]+&s=[\w-]{22}&expires=\d+&signature=[a-f0-9]{64}","asset":"\/comp\/comp\.js\?v=[\w-]{16}"/,
  )
  t.regex(html, /<script src="\/comp\/comp\.js\?v=[\w-]{16}" defer><\/script>/)
  t.regex(
    html,
    /<script src="https:\/\/cdn\.jsdelivr\.net\/npm\/alpinejs@[\d.]+\/dist\/cdn\.min\.js" defer data-comp-reactive data-fallback="\/comp\/alpine\.js\?v=[\w-]{16}" integrity="sha384-[\w+/=]+" crossorigin="anonymous"><\/script>/,
  )
})

test('POST /comp/update: calls run, the HTML and state come back, and the endpoint rotates', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const { snapshot, endpoint } = await page(client, '/')
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'increment' }, { method: 'add', params: [10] }] })
  t.is(res.status, 200)
  const body = await res.json()
  t.regex(body.effects.html, /^<div wire:id="[A-Za-z0-9]+" wire:name="counter" class="counter"><span>16<\/span>/)
  t.deepEqual(body.effects.data, { count: 16 })
  t.deepEqual(body.effects.errors, {})
  t.deepEqual(body.effects.dispatches, [])
  t.deepEqual(body.serverMemo.data, { count: 16, step: 1 })
  t.not(body.effects.endpoint, endpoint)
  t.regex(body.effects.endpoint, /^\/comp\/update\?n=[\w-]+&s=[\w-]{22}&expires=\d+&signature=[a-f0-9]{64}$/)
  // The rotated endpoint and the new memo work for the next request.
  const again = await update(client, body.effects.endpoint, next(snapshot, body), { updates: [['step', '5']], calls: [{ method: 'increment' }] })
  const second = await again.json()
  t.deepEqual(second.serverMemo.data, { count: 21, step: 5 }, 'the numeric text of an input became a number')
})

test('403 for a bare, bad or expired signature; 419 without the CSRF token; signature checked first', async (t) => {
  const { client, app } = await compApp(t, counterFiles)
  const { snapshot, endpoint } = await page(client, '/')
  const body = { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates: [], calls: [] }
  const post = (url: string, headers: Record<string, string> = { 'x-csrf-token': client.cookie('XSRF-TOKEN')! }) =>
    client.withoutCsrf().json('POST', url, body, headers)
  for (const url of [
    '/comp/update',
    endpoint.replace(/signature=[a-f0-9]/, (m) => (m.endsWith('0') ? 'signature=1' : 'signature=0')),
    endpoint.replace(/expires=\d+/, 'expires=1'),
  ]) {
    const res = await post(url)
    t.is(res.status, 403, url)
    t.deepEqual(await res.json(), { message: 'Invalid signature.' })
  }
  const expired = app.service('signer').sign('/comp/update', { ttlMinutes: -1 })
  t.is((await post(expired)).status, 403)
  const noCsrf = await post(endpoint, {})
  t.is(noCsrf.status, 419)
  t.is((await post('/comp/update', {})).status, 403, 'a bare address without CSRF is still 403: the signature is checked first')
  t.is((await post(endpoint)).status, 200)
  t.is((await client.json('POST', endpoint, { ...body }, { 'x-csrf-token': 'nope' })).status, 419)
})

test('a tampered snapshot is 403 with a message; an address that keeps tampering gets 429', async (t) => {
  const { client } = await compApp(t, counterFiles, { comp: { limits: { checksum_failures_per_minute: 3 } } })
  const { snapshot, endpoint } = await page(client, '/')
  const tampered = { ...snapshot, serverMemo: { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, count: 1000 } } }
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) {
    const res = await update(client, endpoint, tampered, { calls: [{ method: 'increment' }] })
    statuses.push(res.status)
    if (i === 0) t.deepEqual(await res.json(), { message: 'The component snapshot does not match its checksum: it was changed outside the server.' })
  }
  t.deepEqual(statuses, [403, 403, 403, 429, 429])
  for (const change of [
    { fingerprint: { ...snapshot.fingerprint, name: 'other' } },
    { fingerprint: { ...snapshot.fingerprint, id: 'abc' } },
    { serverMemo: { ...snapshot.serverMemo, errors: { count: ['x'] } } },
    { serverMemo: { ...snapshot.serverMemo, checksum: 'x'.repeat(64) } },
    { serverMemo: { ...snapshot.serverMemo, extra: 1 } },
  ])
    t.true([403, 429].includes((await update(client, endpoint, { ...snapshot, ...change })).status), JSON.stringify(change))
})

test('forbidden methods: lifecycle hooks, render, framework methods, private and unknown methods are 403', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const { snapshot, endpoint } = await page(client, '/')
  for (const method of [
    'mount',
    'hydrate',
    'booted',
    'dehydrate',
    'render',
    'rendering',
    'rendered',
    'updated',
    'constructor',
    '__proto__',
    'toString',
    'validate',
    'dispatch',
    'reset',
    'fill',
    'state',
    'redirect',
    'getId',
    '_secret',
    'nope',
    'hasOwnProperty',
    'count',
  ]) {
    const res = await update(client, endpoint, snapshot, { calls: [{ method }] })
    t.true(res.status === 403 || res.status === 422, `${method}: ${res.status}`)
    t.regex((await res.json()).message, /cannot be called|not valid|Invalid|Too small/, method)
  }
})

test('forbidden updates: unknown properties 422, prototype paths 400, private fields 422, type changes 422', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const { snapshot, endpoint } = await page(client, '/')
  const cases: Array<[string, unknown, number]> = [
    ['nope', 1, 422],
    ['_secret', 'x', 422],
    ['count.__proto__', 1, 400],
    ['constructor', 1, 400],
    ['count.toString', 1, 422],
    ['count', 'abc', 422],
    ['count', { a: 1 }, 422],
    ['count', [1], 422],
    ['step', true, 422],
    ['a.b.c.d.e.f.g.h.i.j.k', 1, 422],
    ['', 1, 422],
  ]
  for (const [path, value, status] of cases) {
    const res = await update(client, endpoint, snapshot, { updates: [[path, value]] })
    t.is(res.status, status, `${path} = ${JSON.stringify(value)}`)
    t.truthy((await res.json()).message)
  }
})
