import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { TestClient, type TestResponse } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { compApp, page, pageFiles, update, type PageSnapshot } from './comp-fixtures.ts'

// Each documented E_COMP_* code an update can produce, from a component that produces it in an action.
const files = {
  ...pageFiles,
  'app/components/follower.ts': `import { Component, reactive } from 'kiln-framework/comp'
export default class Follower extends Component {
  @reactive() total = 1
  bump() { this.total++ }
}
`,
  'resources/views/components/follower.hbs': '<div>{{total}}</div>',
  'app/components/faulty.ts': `import { Component, Form } from 'kiln-framework/comp'
import { z } from 'zod'
class NoteForm extends Form {
  static rules = z.object({ body: z.string() })
  body = ''
}
export default class Faulty extends Component {
  form = new NoteForm()
  bad = false
  resetTypo() { this.form.reset('bdy' as 'body') }
  breakWith() { this.bad = true }
  async flood() { this.stream('log', 'warming'); await null; this.stream('log', 'x'.repeat(3000)) }
  with() { return this.bad ? (42 as unknown as Record<string, unknown>) : {} }
}
`,
  'app/components/bare.ts': `import { Component } from 'kiln-framework/comp'
export default class Bare extends Component {
  check() { this.validate() }
}
`,
  'resources/views/components/bare.hbs': '<div></div>',
  'app/components/binder.ts': `import { Component } from 'kiln-framework/comp'
export default class Binder extends Component {
  show = false
  reveal() { this.show = true }
}
`,
  'resources/views/components/binder.hbs': "<div>{{#if show}}@comp('field', wire:model=\"titel\", key='f'){{/if}}</div>",
  'app/components/field.ts': `import { Component, modelable } from 'kiln-framework/comp'
export default class Field extends Component {
  @modelable() value = ''
}
`,
  'resources/views/components/field.hbs': '<div><input wire:model="value"></div>',
  'resources/views/components/faulty.hbs': '<div><p wire:stream="log"></p>{{form.body}}</div>',
  'resources/views/parent.hbs': "{{!< layouts/app}}\n@comp('follower', total=3)",
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' }))
  Route.get('/parent', () => view('parent', { title: 'Parent' }))
})
`,
}

async function callOn(client: TestClient, path: string, method: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  const { snapshot, endpoint } = await page(client, path)
  return client.json('POST', endpoint, entry(snapshot, method), { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '', ...headers })
}

function entry(snapshot: PageSnapshot, method: string) {
  return { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates: [], calls: [{ method, params: [] }], island: null }
}

const cases: Array<{ code: string; path: string; method: string }> = [
  { code: 'E_COMP_REACTIVE_MUTATED', path: '/parent', method: 'bump' },
  { code: 'E_COMP_NO_RULES', path: '/page/bare', method: 'check' },
  { code: 'E_COMP_FORM_FIELD', path: '/page/faulty', method: 'resetTypo' },
  { code: 'E_COMP_WITH', path: '/page/faulty', method: 'breakWith' },
  { code: 'E_COMP_MODEL_UNKNOWN', path: '/page/binder', method: 'reveal' },
]

test('each documented code an update can produce comes back as `code` in the JSON answer, a 500 without the message', async (t) => {
  const { client } = await compApp(t, files)
  for (const { code, path, method } of cases) {
    const res = await callOn(client, path, method)
    t.is(res.status, 500, code)
    t.deepEqual(await res.json(), { message: 'Server error.', code }, code)
  }
  // A refusal the browser answers by its code keeps it: a snapshot from another session is 419 E_COMP_EXPIRED.
  const { snapshot, endpoint } = await page(client, '/page/faulty')
  const other = new TestClient(client.app)
  await other.get('/page/faulty')
  const expired = await update(other, endpoint, snapshot, { calls: [{ method: 'breakWith' }] })
  t.is(expired.status, 419)
  t.like(await expired.json(), { code: 'E_COMP_EXPIRED' })
})

test('debug mode: the JSON answer has the code beside the message, and the debug page of the error dialog shows it', async (t) => {
  const { client } = await compApp(t, files, {}, { APP_DEBUG: 'true' })
  const json = (await (await callOn(client, '/parent', 'bump')).json()) as { message: string; code: string; exception: string }
  t.is(json.code, 'E_COMP_REACTIVE_MUTATED')
  t.regex(json.message, /Follower changed its reactive property "total"/)
  const page = await callOn(client, '/parent', 'bump', { accept: 'application/json, text/html;q=0.9' })
  t.is(page.status, 500)
  t.regex(page.header('content-type') ?? '', /^text\/html/)
  // Beside the message, as a row of the page's "Error" card (the source lines around the throw name it too).
  t.regex(await page.text(), /<h4 class="card-subtitle">code<\/h4>\s*<span>E_COMP_REACTIVE_MUTATED<\/span>/)
})

test('a bundled update and a streamed one carry the code in their error entry too', async (t) => {
  const { client } = await compApp(t, files, { comp: { stream: { max_kb: 1 } } })
  const { snapshot, endpoint } = await page(client, '/page/faulty')
  const bundled = await client.json('POST', endpoint, { components: [entry(snapshot, 'resetTypo')] }, { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' })
  t.deepEqual(((await bundled.json()) as { components: unknown[] }).components[0], {
    error: { status: 500, message: 'Server error.', code: 'E_COMP_FORM_FIELD' },
  })
  const streamed = await client.json('POST', endpoint, entry(snapshot, 'flood'), { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '', 'x-comp-stream': '1' })
  const last = (await streamed.text()).trim().split('\n').at(-1)!
  t.deepEqual(JSON.parse(last), { error: { status: 500, message: 'Server error.', code: 'E_COMP_STREAM_TOO_LARGE' } })
})

test("core's answers carry a KilnError's code too: a 500 and a 4xx the error's own status gives", async (t) => {
  const app = await createApp({
    root: tempApp({
      'routes/web.ts': `import { defineRoutes, KilnError } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/crash', () => { throw new KilnError('Secret detail.', { code: 'E_DEMO' }) })
  Route.get('/gone', () => { throw Object.assign(new KilnError('No such post.', { code: 'E_DEMO_MISSING' }), { status: 404 }) })
})
`,
    }),
    env: { APP_ENV: 'test' },
    config: { session: { driver: 'memory' } },
  })
  t.teardown(() => app.close())
  const client = new TestClient(app)
  const crash = await client.get('/crash', { accept: 'application/json' })
  t.is(crash.status, 500)
  t.deepEqual(await crash.json(), { message: 'Server error.', code: 'E_DEMO' })
  const gone = await client.get('/gone', { accept: 'application/json' })
  t.is(gone.status, 404)
  t.deepEqual(await gone.json(), { message: 'No such post.', code: 'E_DEMO_MISSING' })
})
