import test from 'ava'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, page, type PageSnapshot } from './comp-fixtures.ts'
import { featureFiles } from './feature-files.ts'

/** A small deterministic PRNG, so a failure reproduces from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

const PATHS = [
  'page',
  'title',
  'priority',
  'items',
  'items.0',
  'items.99',
  'ownerId',
  'q',
  'sort',
  'note',
  'note.title',
  'notes.0.title',
  'seenAt',
  'size',
  'visits',
  '__proto__',
  'constructor.prototype',
  'title.length',
  'a'.repeat(300),
  'x.y.z',
  '',
  '.',
  '..',
  'items.-1',
  'items.1e3',
  'errors',
  '_secret',
  'photo',
  'rows.0',
  'label',
]
const METHODS = [
  'gotoPage',
  'nextPage',
  'previousPage',
  'resetPage',
  'paginate',
  'save',
  'clearAll',
  'checkTitle',
  'touch',
  'refreshStats',
  'addRow',
  'notify',
  'quiet',
  'clear',
  '$refresh',
  '$set',
  '$toggle',
  '$event',
  '$load',
  '$upload',
  'mount',
  'render',
  'constructor',
  '__proto__',
  'validate',
  'dispatch',
  'toString',
  'hasOwnProperty',
  'nope',
  '',
  'x'.repeat(150),
  'gotoPage',
  'increment',
]
/** Objects within objects, `levels` deep. */
function nested(levels: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value }
  return value
}

const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  2 ** 64,
  1e308,
  -1e308,
  5e-324,
  'text',
  '',
  '5',
  '99999999999999999999',
  '1e400',
  '-1e400',
  'comp-upload:x',
  'comp-upload:aaaaaaaaaaaaaaaaaaaaaa:' + 'a'.repeat(64),
  [],
  [1, 2],
  ['a'],
  {},
  { a: 1 },
  { __proto__x: 1 },
  'x'.repeat(5000),
  [[[[[]]]]],
  { nested: { deep: [1, { a: 2 }] } },
  '2026-01-01',
  'not a date',
  '1e3',
  nested(31),
  nested(40),
  nested(1000),
  'javascript:alert(1)',
]
/** A body's marker that becomes JSON nested 10,000 levels deep: JSON.stringify itself overflows on such a value. */
const DEEP = '"__deep__"'
const DEEP_TEXT = '{"a":['.repeat(5000) + '1' + ']}'.repeat(5000)

test('fuzz: 10,000 mutated update bodies, deep nesting and huge numbers included, give no 5xx and no error in the log', async (t) => {
  const log = join(mkdtempSync(join(tmpdir(), 'kiln-fuzz-')), 'app.log')
  const files = {
    ...featureFiles,
    'app/components/paged-list.ts': `import { view } from 'kiln-framework'
import { Component, WithPagination } from 'kiln-framework/comp'
import { Note } from '../models/note.ts'
export default class PagedList extends WithPagination(Component) {
  async render() { return view('components/paged-list', { notes: await this.paginate(Note.query().orderBy('id'), 2) }) }
}
`,
    'resources/views/components/paged-list.hbs': '<div>{{#each notes.data}}<p>{{title}}</p>{{/each}}{{{paginationLinks notes}}}</div>',
  }
  const { app, client } = await compApp(t, files, {
    comp: { limits: { checksum_failures_per_minute: 1_000_000 } },
    logging: { level: 'info', channels: ['file'], file: { path: log } },
  })
  await refreshDatabase(app)
  const pages: Array<{ snapshot: PageSnapshot; endpoint: string }> = []
  for (const name of ['todo-form', 'search', 'note-card', 'dashboard', 'lazy-card', 'parent-list', 'js-actions', 'paged-list'])
    pages.push(await page(client, `/page/${name}`))
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
      calls: Array.from({ length: Math.floor(random() * 3) }, () => ({
        method: pick(METHODS),
        params: Array.from({ length: Math.floor(random() * 3) }, () => pick(VALUES)),
      })),
      island: random() < 0.1 ? pick(['stats', 'nope', '', '__proto__']) : null,
    }
    // A third of the bodies break the shape or the memo itself.
    const roll = random()
    if (roll < 0.05)
      body.fingerprint = pick([null, {}, { id: 'x', name: 1 }, { ...snapshot.fingerprint, name: pick(['nope', 'counter', '../x', '__proto__']) }])
    else if (roll < 0.15) body.serverMemo = { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, [pick(PATHS)]: pick(VALUES) } }
    else if (roll < 0.2) body.serverMemo = { ...snapshot.serverMemo, types: pick([[], [[['x'], { t: 'model', class: 'Nope', key: 1 }]], 'x', null]) }
    else if (roll < 0.25) body.updates = pick([null, 'x', [1], [[1, 2, 3]], { a: 1 }])
    else if (roll < 0.3) body.calls = pick([null, 'x', [1], [{ method: 1 }], [{ params: 'x' }]])
    else if (roll < 0.33) delete body[pick(['fingerprint', 'serverMemo', 'updates', 'calls'])]
    else if (roll < 0.36) body.serverMemo = { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, [pick(PATHS)]: '__deep__' } }
    else if (roll < 0.38) body.updates = [[pick(PATHS), '__deep__']]
    else if (roll < 0.4) body.calls = [{ method: pick(METHODS), params: ['__deep__'] }]
    const text = JSON.stringify(body).replace(DEEP, DEEP_TEXT)
    const res = await app.request(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-csrf-token': token,
        cookie: `XSRF-TOKEN=${encodeURIComponent(token)}; ${[...client.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ')}`,
      },
      body: text,
    })
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    if (res.status >= 500) failures.push(`${res.status} ${JSON.stringify(body).slice(0, 400)} → ${(await res.text()).slice(0, 300)}`)
    else await res.arrayBuffer()
  }
  t.deepEqual(failures.slice(0, 5), [], `${failures.length} 5xx; statuses ${JSON.stringify([...statuses])}`)
  await app.close()
  const errors = existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level >= 50)
    : []
  t.deepEqual(errors.slice(0, 3), [], `${errors.length} error lines in the log`)
  // Most bodies must get past the shape and checksum checks into the component, where the interesting code is.
  t.true((statuses.get(200) ?? 0) + (statuses.get(422) ?? 0) > 5000 && (statuses.get(200) ?? 0) > 300, `statuses ${JSON.stringify([...statuses])}`)
})
