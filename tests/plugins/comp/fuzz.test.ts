import test from 'ava'
import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, page, type PageSnapshot } from './comp-fixtures.ts'
import { featureFiles } from './feature-files.ts'

/** A small deterministic PRNG, so a failure reproduces from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

const PATHS = ['title', 'priority', 'items', 'items.0', 'items.99', 'ownerId', 'q', 'sort', 'note', 'note.title', 'notes.0.title', 'seenAt', 'size', 'visits', '__proto__', 'constructor.prototype', 'title.length', 'a'.repeat(300), 'x.y.z', '', '.', '..', 'items.-1', 'items.1e3', 'errors', '_secret', 'photo', 'rows.0', 'label']
const METHODS = ['save', 'clearAll', 'checkTitle', 'touch', 'refreshStats', 'addRow', 'notify', 'quiet', 'clear', '$refresh', '$set', '$toggle', '$event', '$load', '$upload', 'mount', 'render', 'constructor', '__proto__', 'validate', 'dispatch', 'toString', 'hasOwnProperty', 'nope', '', 'x'.repeat(150), 'gotoPage', 'increment']
const VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 53, 'text', '', '5', 'comp-upload:x', 'comp-upload:aaaaaaaaaaaaaaaaaaaaaa:' + 'a'.repeat(64), [], [1, 2], ['a'], {}, { a: 1 }, { __proto__x: 1 }, 'x'.repeat(5000), [[[[[]]]]], { nested: { deep: [1, { a: 2 }] } }, '2026-01-01', 'not a date', '1e3']

test('fuzz: 10,000 mutated update bodies give no 5xx', async (t) => {
  const { app, client } = await compApp(t, featureFiles, { comp: { limits: { checksum_failures_per_minute: 1_000_000 } } })
  await refreshDatabase(app)
  const pages: Array<{ snapshot: PageSnapshot; endpoint: string }> = []
  for (const name of ['todo-form', 'search', 'note-card', 'dashboard', 'lazy-card', 'parent-list', 'js-actions']) pages.push(await page(client, `/page/${name}`))
  const random = prng(20261123)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const token = client.cookie('XSRF-TOKEN')!
  const failures: string[] = []
  const statuses = new Map<number, number>()

  for (let i = 0; i < 10_000; i++) {
    const { snapshot, endpoint } = pick(pages)
    const body: Record<string, unknown> = {
      fingerprint: snapshot.fingerprint,
      serverMemo: snapshot.serverMemo,
      updates: Array.from({ length: Math.floor(random() * 4) }, () => [pick(PATHS), pick(VALUES)]),
      calls: Array.from({ length: Math.floor(random() * 3) }, () => ({ method: pick(METHODS), params: Array.from({ length: Math.floor(random() * 3) }, () => pick(VALUES)) })),
      island: random() < 0.1 ? pick(['stats', 'nope', '', '__proto__']) : null,
    }
    // A third of the bodies break the shape or the memo itself.
    const roll = random()
    if (roll < 0.05) body.fingerprint = pick([null, {}, { id: 'x', name: 1 }, { ...snapshot.fingerprint, name: pick(['nope', 'counter', '../x', '__proto__']) }])
    else if (roll < 0.15) body.serverMemo = { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, [pick(PATHS)]: pick(VALUES) } }
    else if (roll < 0.2) body.serverMemo = { ...snapshot.serverMemo, types: pick([[], [[['x'], { t: 'model', class: 'Nope', key: 1 }]], 'x', null]) }
    else if (roll < 0.25) body.updates = pick([null, 'x', [1], [[1, 2, 3]], { a: 1 }])
    else if (roll < 0.3) body.calls = pick([null, 'x', [1], [{ method: 1 }], [{ params: 'x' }]])
    else if (roll < 0.33) delete body[pick(['fingerprint', 'serverMemo', 'updates', 'calls'])]
    const res = await app.request(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': token, cookie: `XSRF-TOKEN=${encodeURIComponent(token)}; ${[...client.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ')}` }, body: JSON.stringify(body) })
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    if (res.status >= 500) failures.push(`${res.status} ${JSON.stringify(body).slice(0, 400)} → ${(await res.text()).slice(0, 300)}`)
    else await res.arrayBuffer()
  }
  t.deepEqual(failures.slice(0, 5), [], `${failures.length} 5xx; statuses ${JSON.stringify([...statuses])}`)
  // Most bodies must get past the shape and checksum checks into the component, where the interesting code is.
  t.true((statuses.get(200) ?? 0) + (statuses.get(422) ?? 0) > 5000 && (statuses.get(200) ?? 0) > 300, `statuses ${JSON.stringify([...statuses])}`)
})
