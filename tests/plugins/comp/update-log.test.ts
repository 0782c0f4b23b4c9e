import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import type { TestClient } from '../../../core/testing/index.ts'
import { compApp, page, type PageSnapshot } from './comp-fixtures.ts'

// The request log says what the browser shows: "The component update failed (500)" is logged as a 500, not as the bundle's 200.
const files = {
  'app/components/oven.ts': `import { Component } from 'kiln-framework/comp'
export default class Oven extends Component {
  heat = 0
  warm() { this.heat++ }
  fire() { throw new Error('The kiln cracked') }
  async streamThenFail() { this.stream('log', 'warming'); await null; throw new Error('Cracked while streaming') }
}
`,
  'resources/views/components/oven.hbs': '<div><p wire:stream="log">{{heat}}</p></div>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('oven')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}

interface Entry {
  level: number
  msg: string
  err?: { message: string }
  req?: { method: string; url: string }
  res?: { statusCode: number }
}

function call(client: TestClient, endpoint: string, snapshot: PageSnapshot, method: string, bundled: boolean) {
  const entry = { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates: [], calls: [{ method, params: [] }], island: null }
  const headers = {
    accept: 'application/json, text/html;q=0.9',
    'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '',
    'x-comp-stream': '1',
    'x-requested-with': 'XMLHttpRequest',
  }
  return client.json('POST', endpoint, bundled ? { components: [entry] } : entry, headers)
}

for (const debug of [true, false]) {
  test(`${debug ? 'debug' : 'production'}: a component action that throws is logged with the status the browser got, alone, bundled or streamed, and its error once`, async (t) => {
    const { app, client } = await compApp(
      t,
      files,
      { http: { request_log: true }, logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/app.log' } } },
      { APP_DEBUG: String(debug) },
    )
    const { endpoint, snapshot } = await page(client, '/')
    const alone = await call(client, endpoint, snapshot, 'fire', false)
    t.is(alone.status, 500)
    const bundled = await call(client, endpoint, snapshot, 'fire', true)
    t.is(bundled.status, 200, 'the bundle itself is answered')
    t.is(
      ((await bundled.json()) as { components: Array<{ error: { status: number } }> }).components[0]!.error.status,
      500,
      'its entry failed: the browser shows a 500',
    )
    const streamed = await call(client, endpoint, snapshot, 'streamThenFail', false)
    t.is(streamed.status, 200)
    t.regex(await streamed.text(), /"error":\{"status":500/)
    const fine = await call(client, endpoint, snapshot, 'warm', true)
    t.is(fine.status, 200)
    await fine.text()
    await app.close()

    const entries = readFileSync(join(app.root, 'storage/logs/app.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Entry)
    const updates = entries.filter((e) => e.msg === 'request completed' && e.req!.method === 'POST')
    t.deepEqual(
      updates.map((e) => [e.level, e.res!.statusCode]),
      [
        [50, 500],
        [50, 500],
        [50, 500],
        [30, 200],
      ],
    )
    const errors = entries.filter((e) => e.err)
    t.deepEqual(
      errors.map((e) => e.err!.message),
      ['The kiln cracked', 'The kiln cracked', 'Cracked while streaming'],
      'each crash logged once, with its error',
    )
  })
}
