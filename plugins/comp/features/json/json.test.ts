import test from 'ava'
import { page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call, featureApp } from '../../../../tests/plugins/comp/feature-app.ts'
import { jsonFiles } from './json.fixtures.ts'

test('a @json() action answers its value by call index, renders nothing, and its state still goes back', async (t) => {
  const { client } = await featureApp(t, jsonFiles)
  const { snapshot, endpoint } = await page(client, '/page/title-search')
  t.deepEqual(snapshot.serverMemo.json, ['find', 'later', 'save', 'broken', 'cyclic', 'shaped', 'nothing'])
  t.true(snapshot.serverMemo.async.includes('find'), 'a @json() action runs in a request of its own')
  const found = await call(client, endpoint, snapshot, { calls: [{ method: 'find', params: ['A'] }] })
  t.deepEqual(found.effects.json, { 0: { value: ['Clay', 'Glaze'] } })
  t.false('html' in found.effects, 'no render for a @json() action')
  t.is(found.effects.data.calls, 1)
  const later = await call(client, endpoint, snapshot, { calls: [{ method: 'plain' }, { method: 'later' }, { method: 'nothing' }] })
  t.deepEqual(later.effects.json, { 1: { value: { when: '1970-01-01T00:00:00.000Z', count: 1 } }, 2: { value: null } })
  t.is(later.effects.data.calls, 2)
  const plain = await call(client, endpoint, snapshot, { calls: [{ method: 'plain' }] })
  t.false('json' in plain.effects, "a plain action's value is not sent")
  t.true('html' in plain.effects)
})

test("a @json() action's validation failure is its own: kept for the call, not in the component's errors", async (t) => {
  const { client } = await featureApp(t, jsonFiles)
  const { snapshot, endpoint } = await page(client, '/page/title-search')
  const refused = await call(client, endpoint, snapshot, { updates: [['name', 'ab']], calls: [{ method: 'save' }] })
  t.is(refused.effects.json[0].status, 422)
  t.deepEqual(Object.keys(refused.effects.json[0].errors), ['name'])
  t.deepEqual(refused.effects.errors, {}, '$errors stay as they were')
  const saved = await call(client, endpoint, snapshot, { updates: [['name', 'abc']], calls: [{ method: 'save' }] })
  t.deepEqual(saved.effects.json, { 0: { value: { saved: 'abc' } } })
})

test('a value JSON cannot carry is a clear error naming the action and the place', async (t) => {
  const { client } = await featureApp(t, jsonFiles, { APP_DEBUG: 'true' })
  const { snapshot, endpoint } = await page(client, '/page/title-search')
  for (const [method, said] of [
    ['broken', /TitleSearch\.broken returned a bigint at size, which JSON cannot carry/],
    ['cyclic', /TitleSearch\.cyclic returned a reference back to itself \(a cycle\) at self/],
    ['shaped', /TitleSearch\.shaped returned a Map instance without toJSON\(\)/],
  ] as const) {
    const res = await update(client, endpoint, snapshot, { calls: [{ method }] })
    t.is(res.status, 500, method)
    const body = await res.json()
    t.regex(JSON.stringify(body), said)
  }
})
