import test from 'ava'
import type { TestClient } from '../../../../core/testing/index.ts'
import { compApp, page, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'

const gates = globalThis as unknown as { streamGate?: Promise<void> }

const files = {
  'app/components/writer.ts': `import { Component } from 'kiln-framework/comp'
export default class Writer extends Component {
  text = ''
  async write() {
    this.stream('answer', 'Hel')
    await (globalThis as any).streamGate
    this.stream('answer', 'lo')
    this.stream('status', 'done', { replace: true })
    this.text = 'Hello'
  }
  quiet() { this.text = 'no stream' }
  async fail() { this.stream('answer', 'x'); await null; throw new Error('secret detail') }
  async flood() { this.stream('answer', 'a'.repeat(600)); await null; this.stream('answer', 'b'.repeat(600)) }
}
`,
  'resources/views/components/writer.hbs': '<div><p wire:stream="answer">{{text}}</p><p wire:stream.replace="status"></p></div>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('writer')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}

async function send(client: TestClient, endpoint: string, snapshot: PageSnapshot, method: string, stream = true) {
  const body = { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates: [], calls: [{ method, params: [] }], island: null }
  const headers: Record<string, string> = { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' }
  if (stream) Object.assign(headers, { 'x-comp-stream': '1', 'accept-encoding': 'gzip, br' })
  return client.json('POST', endpoint, body, headers)
}

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>)

test.serial('a streaming action answers with NDJSON: each chunk as it is sent, then the usual answer', async (t) => {
  const { client } = await compApp(t, files, { comp: { stream: { max_kb: 1 } } })
  const { snapshot, endpoint } = await page(client, '/')
  let release!: () => void
  gates.streamGate = new Promise((resolve) => (release = resolve))
  const res = await send(client, endpoint, snapshot, 'write')
  t.is(res.status, 200)
  t.regex(res.header('content-type') ?? '', /application\/x-ndjson/)
  t.regex(res.header('cache-control') ?? '', /no-transform/)
  t.is(res.header('content-encoding'), null, 'compression would hold chunks back')
  // The first chunk is readable while the action still waits: the answer is not buffered until the end.
  const reader = res.raw.body!.getReader()
  const first = new TextDecoder().decode((await reader.read()).value)
  t.deepEqual(lines(first), [{ stream: { id: snapshot.fingerprint.id, to: 'answer', content: 'Hel', replace: false } }])
  release()
  let rest = ''
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value)
  const [second, status, final] = lines(rest)
  t.deepEqual(second, { stream: { id: snapshot.fingerprint.id, to: 'answer', content: 'lo', replace: false } })
  t.deepEqual(status, { stream: { id: snapshot.fingerprint.id, to: 'status', content: 'done', replace: true } })
  t.is(final!.response.serverMemo.data.text, 'Hello')
  t.regex(final!.response.effects.html, /Hello/)
})

test.serial('an action that does not stream, or a request that does not read streams, gets plain JSON', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/')
  const quiet = await send(client, endpoint, snapshot, 'quiet')
  t.regex(quiet.header('content-type') ?? '', /application\/json/)
  t.is((await quiet.json<{ serverMemo: { data: { text: string } } }>()).serverMemo.data.text, 'no stream')
  gates.streamGate = Promise.resolve()
  const { snapshot: fresh, endpoint: address } = await page(client, '/')
  const plain = await send(client, address, fresh, 'write', false)
  t.regex(plain.header('content-type') ?? '', /application\/json/)
  t.is((await plain.json<{ serverMemo: { data: { text: string } } }>()).serverMemo.data.text, 'Hello')
})

test('an error after the first chunk ends the stream with an error line that hides a 500 cause; the cap stops a flood', async (t) => {
  const { client } = await compApp(t, files, { comp: { stream: { max_kb: 1 } } })
  const { snapshot, endpoint } = await page(client, '/')
  const failed = lines(await (await send(client, endpoint, snapshot, 'fail')).text())
  t.is(failed.length, 2)
  t.deepEqual(failed[1], { error: { status: 500, message: 'Server error.' } })
  const { snapshot: fresh, endpoint: address } = await page(client, '/')
  const flooded = lines(await (await send(client, address, fresh, 'flood')).text())
  t.is(flooded[0]!.stream.content.length, 600)
  t.deepEqual(flooded.at(-1), { error: { status: 500, message: 'Server error.', code: 'E_COMP_STREAM_TOO_LARGE' } })
  t.is(flooded.length, 2, 'the chunk past the cap never left')
})
