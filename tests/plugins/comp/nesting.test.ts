import test from 'ava'
import type { TestClient } from '../../../core/testing/index.ts'
import { compApp, counterFiles, page, update, type PageSnapshot } from './comp-fixtures.ts'

const DEEP = '"__deep__"'

/** `{"a":{"a":...}}`, `levels` deep, as JSON text: JSON.stringify itself overflows on such a value. */
function nested(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)
}

/** An update whose body holds `deep` where the marker `'__deep__'` stands. */
function updateWith(client: TestClient, endpoint: string, snapshot: PageSnapshot, body: Record<string, unknown>, deep: string) {
  const text = JSON.stringify({ fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates: [], calls: [], island: null, ...body }).replace(
    DEEP,
    deep,
  )
  return client.post(endpoint, text, { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' })
}

test('a snapshot nested 10,000 levels deep is refused as tampering (403), never a 500, and counts toward the 429', async (t) => {
  const { client } = await compApp(t, counterFiles, { comp: { limits: { checksum_failures_per_minute: 3 } } })
  const { endpoint, snapshot } = await page(client, '/')
  const deep = { ...snapshot, serverMemo: { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, count: '__deep__' } } }
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) {
    const res = await updateWith(client, endpoint, deep, { serverMemo: deep.serverMemo }, nested(10_000))
    statuses.push(res.status)
    await res.text()
  }
  t.deepEqual(statuses, [403, 403, 403, 429])
})

test('an update value or call parameter nested past limits.max_state_depth is a 422 that changes nothing', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const { endpoint, snapshot } = await page(client, '/')
  const byValue = await updateWith(client, endpoint, snapshot, { updates: [['step', '__deep__']] }, nested(10_000))
  t.is(byValue.status, 422)
  t.regex(((await byValue.json()) as { message: string }).message, /nest deeper than 32/)
  const byParam = await updateWith(client, endpoint, snapshot, { calls: [{ method: 'add', params: ['__deep__'] }] }, nested(5_000))
  t.is(byParam.status, 422)
  // Within the limit, the same shapes are ordinary input (here refused by the property's type, not by depth).
  const shallow = await update(client, endpoint, snapshot, { updates: [['step', { a: { a: { a: 1 } } }]] })
  t.is(shallow.status, 422)
  t.regex(((await shallow.json()) as { message: string }).message, /takes a number/)
})
