/**
 * The starter-style counter app of the component benches (bench/comp-update.ts,
 * bench/comp-phases.ts): a `Counter` component with `increment`, and a page
 * that shows it. `store: 'memory'` is the app P4's first line has always
 * measured (a session with nothing stored); `store: 'fs'` is the default file
 * store with a session that holds a value, so every update reads one session
 * file, as the same-work baseline (bench/comp-same-work.ts) does.
 */
import { createApp, type Application } from '../core/index.ts'
import { comp } from '../plugins/comp/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'

const COMPONENT =
  "import { Component } from 'kiln-framework/comp'\nexport default class Counter extends Component {\n  count = 0\n  increment() { this.count++ }\n}\n"

/**
 * A booted counter app; `routes` adds lines inside `defineRoutes`.
 *
 * @example
 * ```ts
 * const app = await counterApp({ store: 'fs' })
 * const server = await app.listen({ port: 0 })
 * ```
 */
export async function counterApp(options: { store: 'memory' | 'fs'; routes?: string }): Promise<Application> {
  const page = options.store === 'fs' ? "({ session }) => { session!.put('seen', true); return view('page') }" : "() => view('page')"
  return createApp({
    root: tempApp({
      'app/components/counter.ts': COMPONENT,
      'resources/views/components/counter.hbs': '<section class="counter"><p>{{count}}</p><button wire:click="increment">+</button></section>',
      'resources/views/page.hbs': "<!doctype html><html><head>@compScripts</head><body>@comp('counter')</body></html>",
      'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', ${page}); ${options.routes ?? ''} })\n`,
    }),
    env: { APP_ENV: 'production', APP_URL: 'http://127.0.0.1:3000', APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}` },
    plugins: [comp()],
    config: { session: { driver: options.store }, logging: { channels: [] } },
  })
}
