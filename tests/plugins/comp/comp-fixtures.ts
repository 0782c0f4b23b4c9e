import { createApp, type Application } from '../../../core/index.ts'
import { TestClient, type TestResponse } from '../../../core/testing/index.ts'
import { comp } from '../../../plugins/comp/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** A snapshot as the page carries it. */
export interface PageSnapshot {
  fingerprint: { id: string; name: string }
  serverMemo: Record<string, any> & { data: Record<string, any>; checksum: string }
}

const layout = '<!doctype html><html><head><title>{{title}}</title>@compScripts</head><body>{{{body}}}</body></html>'

/**
 * An app with the components plugin, the given files (components in
 * app/components, views in resources/views), memory sessions, and a layout.
 */
export async function compApp(
  t: { teardown(fn: () => unknown): void },
  files: Record<string, string>,
  config: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Promise<{ app: Application; client: TestClient }> {
  const app = await createApp({
    root: tempApp({ 'resources/views/layouts/app.hbs': layout, ...files }),
    env: { APP_ENV: 'test', ...env },
    plugins: [comp()],
    config: { session: { driver: 'memory' }, ...config },
  })
  t.teardown(() => app.close())
  return { app, client: new TestClient(app) }
}

/** Undoes the attribute escaping of a snapshot. */
function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** Every component snapshot in a page, in order. */
export function snapshots(html: string): PageSnapshot[] {
  return [...html.matchAll(/wire:snapshot="([^"]*)"/g)].map((m) => JSON.parse(unescape(m[1]!)) as PageSnapshot)
}

/** The signed update address of a page. */
export function endpointOf(html: string): string {
  const match = /<meta name="comp-endpoint" content="([^"]+)">/.exec(html)
  if (!match) throw new Error('The page has no comp-endpoint meta.')
  return unescape(match[1]!)
}

/** Loads a page and returns its HTML, first snapshot and endpoint. */
export async function page(client: TestClient, path: string): Promise<{ html: string; snapshot: PageSnapshot; endpoint: string }> {
  const res = await client.get(path, { accept: 'text/html' })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${html.slice(0, 500)}`)
  return { html, snapshot: snapshots(html)[0]!, endpoint: endpointOf(html) }
}

/** One update request, as the browser client sends it. */
export function update(
  client: TestClient,
  endpoint: string,
  snapshot: PageSnapshot,
  body: { updates?: Array<[string, unknown]>; calls?: Array<{ method: string; params?: unknown[] }>; island?: string | null; renderless?: boolean } = {},
): Promise<TestResponse> {
  return client.json(
    'POST',
    endpoint,
    {
      fingerprint: snapshot.fingerprint,
      serverMemo: snapshot.serverMemo,
      updates: body.updates ?? [],
      calls: body.calls ?? [],
      island: body.island ?? null,
      ...(body.renderless ? { renderless: true } : {}),
    },
    { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' },
  )
}

/** The snapshot to send next, from an update's answer. */
export function next(snapshot: PageSnapshot, body: { serverMemo: PageSnapshot['serverMemo'] }): PageSnapshot {
  return { fingerprint: snapshot.fingerprint, serverMemo: body.serverMemo }
}

/** The route and view of a page showing one component: `/page/<name>` renders the component `<name>` in the layout. */
export const pageFiles: Record<string, string> = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/page/{name}', ({ params, request }) => view('page', { name: params.name, title: 'Page' }))
})
`,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
}

/** A counter: the component most tests use. */
export const counterFiles = {
  'app/components/counter.ts': `import { Component } from 'kiln-framework/comp'
export default class Counter extends Component {
  count = 0
  step = 1
  _secret = 'not state'
  increment() { this.count += this.step }
  add(amount: number) { this.count += amount }
  mount(params: Record<string, unknown>) { if (typeof params.start === 'number') this.count = params.start }
}
`,
  'resources/views/components/counter.hbs': '<div class="counter"><span>{{count}}</span><button wire:click="increment">+</button></div>',
  'resources/views/home.hbs': "{{!< layouts/app}}\n<h1>Home</h1>@comp('counter', start=5)",
  'routes/web.ts':
    "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('home', { title: 'Home' })) })\n",
}
