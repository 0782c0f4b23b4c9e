import test from 'ava'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, page, type PageSnapshot } from './comp-fixtures.ts'
import { islandsFiles } from '../../../plugins/comp/features/islands/islands.fixtures.ts'
import { jsFiles } from '../../../plugins/comp/features/js/js.fixtures.ts'
import { lazyFiles } from '../../../plugins/comp/features/lazy/lazy.fixtures.ts'
import { kernelFiles } from './kernel-files.ts'

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

/** One update body made from a real snapshot, with random updates and calls; a third of them break the shape or the memo. */
function mutatedBody(random: () => number, snapshot: PageSnapshot): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
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
  if (roll < 0.05) body.fingerprint = pick([null, {}, { id: 'x', name: 1 }, { ...snapshot.fingerprint, name: pick(['nope', 'counter', '../x', '__proto__']) }])
  else if (roll < 0.15) body.serverMemo = { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, [pick(PATHS)]: pick(VALUES) } }
  else if (roll < 0.2) body.serverMemo = { ...snapshot.serverMemo, types: pick([[], [[['x'], { t: 'model', class: 'Nope', key: 1 }]], 'x', null]) }
  else if (roll < 0.25) body.updates = pick([null, 'x', [1], [[1, 2, 3]], { a: 1 }])
  else if (roll < 0.3) body.calls = pick([null, 'x', [1], [{ method: 1 }], [{ params: 'x' }]])
  else if (roll < 0.33) delete body[pick(['fingerprint', 'serverMemo', 'updates', 'calls'])]
  else if (roll < 0.36) body.serverMemo = { ...snapshot.serverMemo, data: { ...snapshot.serverMemo.data, [pick(PATHS)]: '__deep__' } }
  else if (roll < 0.38) body.updates = [[pick(PATHS), '__deep__']]
  else if (roll < 0.4) body.calls = [{ method: pick(METHODS), params: ['__deep__'] }]
  return body
}

/** The app the fuzz tests drive: the kernel's components and some features', a paginated list, a log file; and a page of each component. */
async function fuzzApp(t: Parameters<typeof compApp>[0]) {
  const log = join(mkdtempSync(join(tmpdir(), 'kiln-fuzz-')), 'app.log')
  const files = {
    ...kernelFiles,
    ...islandsFiles,
    ...lazyFiles,
    ...jsFiles,
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
  return { app, client, log, pages }
}

/** The lines of level error or worse in a JSON log file. */
function errorLines(log: string): Array<{ level: number; msg: string }> {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level >= 50)
    : []
}

/** Posts a body (its deep marker expanded) to an update address as the page's browser would. */
async function post(app: Awaited<ReturnType<typeof fuzzApp>>['app'], client: Awaited<ReturnType<typeof fuzzApp>>['client'], endpoint: string, body: unknown) {
  const token = client.cookie('XSRF-TOKEN')!
  return app.request(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-csrf-token': token,
      cookie: `XSRF-TOKEN=${encodeURIComponent(token)}; ${[...client.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ')}`,
    },
    body: JSON.stringify(body).replace(DEEP, DEEP_TEXT),
  })
}

test('fuzz: 10,000 mutated update bodies, deep nesting and huge numbers included, give no 5xx and no error in the log', async (t) => {
  const { app, client, log, pages } = await fuzzApp(t)
  const random = prng(20261123)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const failures: string[] = []
  const statuses = new Map<number, number>()

  for (let i = 0; i < 10_000; i++) {
    const { snapshot, endpoint } = pick(pages)
    const body = mutatedBody(random, snapshot)
    const res = await post(app, client, endpoint, body)
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    if (res.status >= 500) failures.push(`${res.status} ${JSON.stringify(body).slice(0, 400)} → ${(await res.text()).slice(0, 300)}`)
    else await res.arrayBuffer()
  }
  t.deepEqual(failures.slice(0, 5), [], `${failures.length} 5xx; statuses ${JSON.stringify([...statuses])}`)
  await app.close()
  const errors = errorLines(log)
  t.deepEqual(errors.slice(0, 3), [], `${errors.length} error lines in the log`)
  // Most bodies must get past the shape and checksum checks into the component, where the interesting code is.
  t.true((statuses.get(200) ?? 0) + (statuses.get(422) ?? 0) > 5000 && (statuses.get(200) ?? 0) > 300, `statuses ${JSON.stringify([...statuses])}`)
})

test('fuzz: 3,000 mutated bundled bodies (several components, listeners riding along, broken counts and shapes) give no 5xx and no error in the log', async (t) => {
  const { app, client, log, pages } = await fuzzApp(t)
  const random = prng(20261125)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  /** Up to `n` different pages, in random order. */
  const some = (n: number) => [...pages].sort(() => random() - 0.5).slice(0, n)
  const failures: string[] = []
  const statuses = new Map<number, number>()

  for (let i = 0; i < 3_000; i++) {
    const chosen = some(1 + Math.floor(random() * 5))
    const split = 1 + Math.floor(random() * chosen.length)
    const body: Record<string, unknown> = {
      components: chosen.slice(0, split).map(({ snapshot }) => mutatedBody(random, snapshot)),
      listeners: chosen
        .slice(split)
        .map(({ snapshot }) => (random() < 0.2 ? mutatedBody(random, snapshot) : { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo })),
    }
    // Some bodies break the bundle itself: its counts, its lists, a component sent twice, unknown keys.
    const roll = random()
    if (roll < 0.04) body.components = pick([null, 'x', {}, [], [1], [null]])
    else if (roll < 0.08) body.listeners = pick([null, 'x', {}, [1], [{ fingerprint: null }], [{ serverMemo: {} }]])
    else if (roll < 0.1) body.components = Array.from({ length: 60 }, () => mutatedBody(random, pick(pages).snapshot))
    else if (roll < 0.14) body.components = [...(body.components as unknown[]), ...(body.components as unknown[])]
    else if (roll < 0.16) body.listeners = [...(body.listeners as unknown[]), ...(body.components as unknown[])]
    else if (roll < 0.18) body[pick(['__proto__', 'constructor', 'extra'])] = { polluted: true }
    else if (roll < 0.2) delete body.components
    const res = await post(app, client, pick(chosen).endpoint, body)
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    if (res.status >= 500) failures.push(`${res.status} ${JSON.stringify(body).slice(0, 400)} → ${(await res.text()).slice(0, 300)}`)
    else await res.arrayBuffer()
  }
  t.deepEqual(failures.slice(0, 5), [], `${failures.length} 5xx; statuses ${JSON.stringify([...statuses])}`)
  t.false('polluted' in ({} as Record<string, unknown>), 'no prototype pollution')
  await app.close()
  const errors = errorLines(log)
  t.deepEqual(errors.slice(0, 3), [], `${errors.length} error lines in the log`)
  // Enough bundles must get through every check and run.
  t.true((statuses.get(200) ?? 0) > 300, `statuses ${JSON.stringify([...statuses])}`)
})
