import test from 'ava'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refreshDatabase } from '../../../core/testing/index.ts'
import { compApp, counterFiles, next, page, update, type PageSnapshot } from './comp-fixtures.ts'
import { kernelFiles } from './kernel-files.ts'

const files = {
  ...kernelFiles,
  'app/components/kinds.ts': `import { Component, typed } from 'kiln-framework/comp'
import { Note } from '../models/note.ts'
export default class Kinds extends Component {
  @typed(Note) note: Note | null = null
  @typed([Note]) notes: Note[] | null = null
  @typed(Date) when: Date | null = null
  @typed(BigInt) big: bigint | null = null
  @typed(Object) options: Record<string, unknown> | null = null
  @typed(Array) list: unknown[] | null = null
  loose: unknown = null
  declare subtitle: string
  seen = ''
  mount() { this.subtitle = 'set in mount' }
  check() {
    this.seen = [this.when instanceof Date ? 'date' : String(this.when), typeof this.big, this.note === null ? 'no note' : 'note', typeof this.subtitle + ':' + this.subtitle].join(',')
  }
  render() { return '<div>{{seen}} {{subtitle}}</div>' }
}
`,
}

async function kinds(t: Parameters<typeof compApp>[0]) {
  const { app, client } = await compApp(t, files)
  await refreshDatabase(app)
  return { app, client, ...(await page(client, '/page/kinds')) }
}

test('a declared property that is null takes only values of its kind (422 otherwise, 403 for models) and nothing changes', async (t) => {
  const { client, snapshot, endpoint } = await kinds(t)
  const refused: Array<[string, unknown, number]> = [
    ['note', { id: 1, title: 'posing as a model' }, 403],
    ['note', 1, 403],
    ['notes', [{ id: 1 }], 403],
    ['when', 'not a date', 422],
    ['when', { toISOString: 'x' }, 422],
    ['big', '1.5', 422],
    ['options', [1], 422],
    ['options', 'text', 422],
    ['list', { a: 1 }, 422],
  ]
  for (const [path, value, status] of refused) {
    const res = await update(client, endpoint, snapshot, { updates: [[path, value]], calls: [{ method: 'check' }] })
    t.is(res.status, status, `${path} ← ${JSON.stringify(value)}`)
  }
  const ok = await update(client, endpoint, snapshot, {
    updates: [
      ['when', '2026-11-24T10:00:00Z'],
      ['big', '12345678901234567890'],
      ['options', { a: 1 }],
      ['list', [1, 'x']],
    ],
    calls: [{ method: 'check' }],
  })
  t.is(ok.status, 200)
  const body = (await ok.json()) as { serverMemo: PageSnapshot['serverMemo'] }
  t.regex(body.serverMemo.data.seen, /^date,bigint,no note,/)
  t.is(body.serverMemo.data.big, '12345678901234567890')
})

test('an undeclared property that starts as null takes only JSON primitives', async (t) => {
  const { client, snapshot, endpoint } = await kinds(t)
  for (const value of [{ a: 1 }, [1, 2], { __x: 1 }]) {
    const res = await update(client, endpoint, snapshot, { updates: [['loose', value]] })
    t.is(res.status, 422, JSON.stringify(value))
    t.regex(((await res.json()) as { message: string }).message, /@typed/)
  }
  for (const value of ['text', 3, true, null])
    t.is((await update(client, endpoint, snapshot, { updates: [['loose', value]] })).status, 200, JSON.stringify(value))
})

test('a field written with `declare` and set in mount() stays state: it survives updates and can be set', async (t) => {
  const { client, snapshot, endpoint } = await kinds(t)
  t.is(snapshot.serverMemo.data.subtitle, 'set in mount')
  const first = await update(client, endpoint, snapshot, { calls: [{ method: 'check' }] })
  t.is(first.status, 200)
  const body = (await first.json()) as { serverMemo: PageSnapshot['serverMemo']; effects: { endpoint: string; html: string } }
  t.regex(body.serverMemo.data.seen, /string:set in mount$/)
  t.regex(body.effects.html, /set in mount/)
  const set = await update(client, body.effects.endpoint, next(snapshot, body), { updates: [['subtitle', 'changed']], calls: [{ method: 'check' }] })
  t.is(set.status, 200)
  t.regex(((await set.json()) as { serverMemo: PageSnapshot['serverMemo'] }).serverMemo.data.seen, /string:changed$/)
})

test('upload references are files only in @upload properties: elsewhere a comp-upload: text is just text', async (t) => {
  const { client, snapshot, endpoint } = await kinds(t)
  const res = await update(client, endpoint, snapshot, { updates: [['seen', 'comp-upload:aaaaaaaaaaaaaaaaaaaaaa:' + 'a'.repeat(64)]] })
  t.is(res.status, 200)
  t.is(((await res.json()) as { serverMemo: PageSnapshot['serverMemo'] }).serverMemo.data.seen, 'comp-upload:aaaaaaaaaaaaaaaaaaaaaa:' + 'a'.repeat(64))
})

test('in development, a component method marked TypeScript-private is named in a boot warning; in production, not', async (t) => {
  const leaky = {
    ...counterFiles,
    'app/components/leaky.ts': `import { Component } from 'kiln-framework/comp'
export default class Leaky extends Component {
  n = 0
  private helper() { return 1 }
  #fine() { return 2 }
}
`,
  }
  const warnings = async (env: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-log-'))
    const log = join(dir, 'app.log')
    const { app } = await compApp(
      t,
      leaky,
      { logging: { level: 'info', channels: ['file'], file: { path: log } } },
      { APP_ENV: env, APP_KEY: 'base64:' + Buffer.alloc(32, 7).toString('base64'), APP_URL: 'https://app.example' },
    )
    await app.close()
    // The file logger writes asynchronously: wait until it has flushed what boot logged.
    for (let i = 0; i < 50 && !existsSync(log); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    return existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { level: number; msg: string })
          .filter((line) => line.level === 40)
          .map((line) => line.msg)
      : []
  }
  t.deepEqual(await warnings('development'), [
    'comp: Leaky.helper() is private in TypeScript only, so the browser can call it; write #helper() to keep it on the server',
  ])
  t.deepEqual(await warnings('production'), [])
})
