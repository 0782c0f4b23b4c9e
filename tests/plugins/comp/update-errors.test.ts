import test from 'ava'
import type { TestClient } from '../../../core/testing/index.ts'
import { compApp, page, type PageSnapshot } from './comp-fixtures.ts'

// What a failed update answers: the browser shows it in its error dialog (tests/plugins/comp/error-modal.browser.test.ts).
const files = {
  'app/components/oven.ts': `import { Component } from 'kiln-framework/comp'
export default class Oven extends Component {
  heat = 0
  fire() {
    const degrees = 1200 // oven-source-marker
    throw new Error('The kiln cracked at ' + degrees + ' <degrees>')
  }
  async streamThenFail() { this.stream('log', 'warming'); await null; throw new Error('Cracked while streaming') }
}
`,
  'resources/views/components/oven.hbs': '<div><p wire:stream="log">{{heat}}</p></div>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n@comp('oven')",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}

/** The headers the browser's component client sends with every update: it accepts HTML too, for the debug page. */
function browserHeaders(client: TestClient): Record<string, string> {
  return {
    accept: 'application/json, text/html;q=0.9',
    'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '',
    'x-comp-stream': '1',
    'x-requested-with': 'XMLHttpRequest',
  }
}

function call(client: TestClient, endpoint: string, snapshot: PageSnapshot, method: string, bundled = false, jsonOnly = false) {
  const entry = { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates: [], calls: [{ method, params: [] }], island: null }
  const headers = jsonOnly ? { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' } : browserHeaders(client)
  return client.json('POST', endpoint, bundled ? { components: [entry] } : entry, headers)
}

async function app(t: Parameters<typeof compApp>[0], debug: boolean) {
  const { client } = await compApp(t, files, {}, { APP_DEBUG: String(debug) })
  return { client, ...(await page(client, '/')) }
}

test('debug mode: an action that throws answers the debug page (HTML), the same youch page a route error gets', async (t) => {
  const { client, endpoint, snapshot } = await app(t, true)
  const res = await call(client, endpoint, snapshot, 'fire')
  t.is(res.status, 500)
  t.regex(res.header('content-type') ?? '', /^text\/html/)
  const html = await res.text()
  t.regex(html, /The kiln cracked at 1200 &lt;degrees&gt;/, 'the message, escaped')
  t.regex(html, /oven-source-marker/, 'the source line of the frame that threw')
  t.regex(html, /stack-frame/, "youch's stack")
  // The component's own frame is the app's; no frame of Kiln's own files is.
  const frames = html.split('<li class="stack-frame ').slice(1)
  t.true(
    frames.some((frame) => /app\/components\/oven\.ts/.test(frame) && frame.includes('In App')),
    'the component file is marked In App',
  )
  const kilnFrames = frames.filter((frame) => /title="(core|plugins)\//.test(frame))
  t.true(kilnFrames.length > 0, 'frames of Kiln (the test runs from the clone: the files are outside node_modules)')
  for (const frame of kilnFrames) t.false(frame.includes('In App'), frame.slice(0, 300))
})

test('debug mode: a JSON-only client (testComponent, an API tool) keeps the JSON answer with message, exception and stack', async (t) => {
  const { client, endpoint, snapshot } = await app(t, true)
  const res = await call(client, endpoint, snapshot, 'fire', false, true)
  t.is(res.status, 500)
  const body = (await res.json()) as { message: string; exception: string; stack: string[] }
  t.is(body.message, 'The kiln cracked at 1200 <degrees>')
  t.is(body.exception, 'Error')
  t.regex(body.stack.join('\n'), /oven\.ts/)
  const bundled = await call(client, endpoint, snapshot, 'fire', true, true)
  t.deepEqual(((await bundled.json()) as { components: unknown[] }).components[0], { error: { status: 500, message: 'The kiln cracked at 1200 <degrees>' } })
})

test('debug mode: an unknown action is a 403 with a short JSON message, no stack', async (t) => {
  const { client, endpoint, snapshot } = await app(t, true)
  const res = await call(client, endpoint, snapshot, 'nope')
  t.is(res.status, 403)
  t.regex(res.header('content-type') ?? '', /application\/json/)
  t.deepEqual(await res.json(), { message: 'The method "nope" cannot be called on Oven.' })
})

test('production: a crash says only "Server error." and a 4xx keeps its message; no stack, no page', async (t) => {
  const { client, endpoint, snapshot } = await app(t, false)
  const crash = await call(client, endpoint, snapshot, 'fire')
  t.is(crash.status, 500)
  t.deepEqual(await crash.json(), { message: 'Server error.' })
  const unknown = await call(client, endpoint, snapshot, 'nope')
  t.is(unknown.status, 403)
  t.deepEqual(await unknown.json(), { message: 'The method "nope" cannot be called on Oven.' })
})

test('a bundled update: in debug mode the failed entry carries the debug page; in production only "Server error."', async (t) => {
  for (const debug of [true, false]) {
    const { client, endpoint, snapshot } = await app(t, debug)
    const res = await call(client, endpoint, snapshot, 'fire', true)
    t.is(res.status, 200)
    const failed = ((await res.json()) as { components: Array<{ error: { status: number; message: string; page?: string } }> }).components[0]!.error
    t.is(failed.status, 500)
    if (debug) {
      t.is(failed.message, 'The kiln cracked at 1200 <degrees>')
      t.regex(failed.page ?? '', /oven-source-marker/)
    } else t.deepEqual(failed, { status: 500, message: 'Server error.' })
  }
})

test('a streamed update that fails after its first chunk: in debug mode the error line carries the debug page', async (t) => {
  for (const debug of [true, false]) {
    const { client, endpoint, snapshot } = await app(t, debug)
    const res = await call(client, endpoint, snapshot, 'streamThenFail')
    t.is(res.status, 200)
    const last = JSON.parse((await res.text()).trim().split('\n').at(-1)!) as { error: { status: number; message: string; page?: string } }
    t.is(last.error.status, 500)
    if (debug) t.regex(last.error.page ?? '', /Cracked while streaming/)
    else t.deepEqual(last.error, { status: 500, message: 'Server error.' })
  }
})
