import test from 'ava'
import { HttpException } from '../../../core/index.ts'
import { parseSnapshotPart, parseUpdatePayload } from '../../../plugins/comp/protocol/update-payload.ts'

const limits = { max_updates: 2, max_calls: 2 } as Parameters<typeof parseUpdatePayload>[0]
const snapshot = { fingerprint: { id: 'abc123', name: 'counter' }, serverMemo: { data: { count: 1 }, checksum: 'x', session: 's', expires: 1 } }

function refusal(t: import('ava').ExecutionContext, body: unknown, path: string): void {
  const error = t.throws(() => parseUpdatePayload(limits, body), { instanceOf: HttpException })
  t.is(error?.status, 422, JSON.stringify(body))
  t.deepEqual(Object.keys((error?.body as { errors: Record<string, string[]> }).errors), [path], JSON.stringify(body))
}

test('an update body: defaults for what it leaves out, the memo kept whole, unknown top-level keys dropped', (t) => {
  const payload = parseUpdatePayload(limits, { ...snapshot, extra: 1, calls: [{ method: 'increment' }] })
  t.deepEqual(payload, {
    fingerprint: { id: 'abc123', name: 'counter' },
    serverMemo: { data: { count: 1 }, errors: {}, checksum: 'x', session: 's', expires: 1 },
    updates: [],
    calls: [{ method: 'increment', params: [] }],
  })
  t.deepEqual(parseUpdatePayload(limits, { ...snapshot, island: null, renderless: true, updates: [['count', 2]] }).updates, [['count', 2]])
})

test('a malformed update body is a 422 naming the path at fault, as a schema failure is', (t) => {
  refusal(t, [], '_')
  refusal(t, 'x', '_')
  refusal(t, { fingerprint: 1 }, 'fingerprint')
  refusal(t, { ...snapshot, fingerprint: { id: 'a-b', name: 'counter' } }, 'fingerprint.id')
  refusal(t, { ...snapshot, fingerprint: { id: 'ab', name: '' } }, 'fingerprint.name')
  refusal(t, { fingerprint: snapshot.fingerprint }, 'serverMemo')
  refusal(t, { ...snapshot, serverMemo: { data: [], checksum: 'x' } }, 'serverMemo.data')
  refusal(t, { ...snapshot, serverMemo: { data: {}, checksum: 'x'.repeat(65) } }, 'serverMemo.checksum')
  refusal(t, { ...snapshot, serverMemo: { data: {}, checksum: 'x', errors: { a: [1] } } }, 'serverMemo.errors.a')
  refusal(t, { ...snapshot, updates: {} }, 'updates')
  refusal(
    t,
    {
      ...snapshot,
      updates: [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ],
    },
    'updates',
  )
  refusal(t, { ...snapshot, updates: [['a']] }, 'updates.0')
  refusal(t, { ...snapshot, updates: [['', 1]] }, 'updates.0.0')
  refusal(t, { ...snapshot, calls: [{ method: 'a' }, { method: 'b' }, { method: 'c' }] }, 'calls')
  refusal(t, { ...snapshot, calls: [null] }, 'calls.0')
  refusal(t, { ...snapshot, calls: [{ method: 'x'.repeat(101) }] }, 'calls.0.method')
  refusal(t, { ...snapshot, calls: [{ method: 'a', params: Array(101).fill(0) }] }, 'calls.0.params')
  refusal(t, { ...snapshot, island: 5 }, 'island')
  refusal(t, { ...snapshot, renderless: 'yes' }, 'renderless')
  t.throws(() => parseSnapshotPart({ fingerprint: snapshot.fingerprint }), { instanceOf: HttpException })
})
