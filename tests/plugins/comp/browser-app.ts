import type { Browser, Page } from 'playwright-core'
import { createApp, type Application, type Plugin } from '../../../core/index.ts'
import { comp } from '../../../plugins/comp/index.ts'
import { launchChromium } from '../../fixtures/browser.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const layout = `<!doctype html><html><head><meta charset="utf-8"><meta name="csrf-token" content="{{csrfToken}}"><title>{{title}}</title>@compScripts</head><body>{{{body}}}</body></html>`

/** A Chromium page of a test, with the console errors it printed. */
export interface TestPage {
  page: Page
  errors: string[]
  /** Opens a path of the app and waits until Alpine has started every component. */
  open(path: string): Promise<void>
}

/** A served app and a browser, shared by the tests of one file. */
export interface BrowserApp {
  app: Application
  url: string
  browser: Browser
  /** A fresh browser context (own cookies and session) with a page. */
  newPage(t: { teardown(fn: () => unknown): void }): Promise<TestPage>
  close(): Promise<void>
}

/**
 * An app with the components plugin serving `/c/<name>` for every component
 * in `files` (rendered inside a layout with `@compScripts`), on a real port,
 * and Chromium.
 */
export async function browserApp(
  files: Record<string, string>,
  options: { config?: Record<string, unknown>; env?: Record<string, string>; plugins?: Plugin[] } = {},
): Promise<BrowserApp> {
  const { comp: compConfig, ...config } = options.config ?? {}
  const app = await createApp({
    root: tempApp({
      'resources/views/layouts/app.hbs': layout,
      // Chromium asks for it on every page; a 404 would show up as a console error.
      'public/favicon.ico': '',
      'resources/views/one.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
      'routes/web.ts':
        "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/c/{name}', ({ params }) => view('one', { name: params.name, title: params.name })) })\n",
      ...files,
    }),
    env: { APP_ENV: 'test', ...options.env },
    plugins: [comp(), ...(options.plugins ?? [])],
    config: { session: { driver: 'memory' }, comp: { reactive_cdn: null, ...(compConfig as object | undefined) }, ...config },
  })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  const base = server.url + (options.env?.APP_BASE_PATH ?? '')
  return {
    app,
    url: base,
    browser,
    async newPage(t) {
      const context = await browser.newContext()
      t.teardown(() => context.close())
      const page = await context.newPage()
      const errors: string[] = []
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
      page.on('pageerror', (error) => errors.push(error.message))
      return {
        page,
        errors,
        async open(path: string) {
          await page.goto(`${base}${path}`)
          await page.waitForFunction(() => (window as unknown as { Alpine?: unknown }).Alpine !== undefined)
          await page.waitForFunction(() =>
            [...document.querySelectorAll('[wire\\:id]')].every((el) => (el as unknown as { _x_dataStack?: unknown })._x_dataStack),
          )
        },
      }
    },
    async close() {
      await browser.close()
      await app.close()
    },
  }
}

/** Waits until an element's text is exactly `text`. */
export async function textIs(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(([s, expected]) => document.querySelector(s!)?.textContent === expected, [selector, text])
}
