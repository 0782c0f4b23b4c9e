import type { Browser, Page } from 'playwright-core'
import { createApp, type Application } from '../../../core/index.ts'
import { comp } from '../../../plugins/comp/index.ts'
import { launchChromium } from '../../fixtures/browser.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const layout = `<!doctype html><html><head><meta charset="utf-8"><meta name="csrf-token" content="{{csrfToken}}"><title>{{title}}</title>@compScripts</head><body>{{{body}}}</body></html>`

/**
 * An app with the components plugin, serving `/c/<name>` for every
 * component in `files` (rendered inside a layout with `@compScripts`), on a
 * real port, and a Chromium page that records console errors.
 */
export async function browserApp(
  t: { teardown(fn: () => unknown): void },
  files: Record<string, string>,
  options: { config?: Record<string, unknown>; env?: Record<string, string> } = {},
): Promise<{ app: Application; url: string; browser: Browser; page: Page; errors: string[]; open(path: string): Promise<void> }> {
  const app = await createApp({
    root: tempApp({
      'resources/views/layouts/app.hbs': layout,
      // Chromium asks for it on every page; a 404 would show up as a console error.
      'public/favicon.ico': '',
      'resources/views/one.hbs': "{{!< layouts/app}}\n{{{comp name}}}",
      'routes/web.ts': "import { defineRoutes, view } from 'kiln'\nexport default defineRoutes((Route) => { Route.get('/c/{name}', ({ params }) => view('one', { name: params.name, title: params.name })) })\n",
      ...files,
    }),
    env: { APP_ENV: 'test', ...options.env },
    plugins: [comp()],
    config: { session: { driver: 'memory' }, comp: { reactive_cdn: null, ...((options.config?.comp as object) ?? {}) }, ...Object.fromEntries(Object.entries(options.config ?? {}).filter(([k]) => k !== 'comp')) },
  })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(async () => {
    await browser.close()
    await app.close()
  })
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  page.on('pageerror', (error) => errors.push(error.message))
  const base = server.url + (options.env?.APP_BASE_PATH ?? '')
  return {
    app,
    url: base,
    browser,
    page,
    errors,
    async open(path: string) {
      await page.goto(`${base}${path}`)
      await page.waitForFunction(() => (window as unknown as { Alpine?: { version: string } }).Alpine !== undefined)
      // Alpine has started once every component root carries its scope.
      await page.waitForFunction(() => [...document.querySelectorAll('[wire\\:id]')].every((el) => (el as unknown as { _x_dataStack?: unknown })._x_dataStack))
    },
  }
}
