import test from 'ava'
import type { Page } from 'playwright-core'
import { definePlugin } from '../../../../core/index.ts'
import { browserApp, textIs, type BrowserApp, type TestPage } from '../../../../tests/plugins/comp/browser-app.ts'
import { scriptsFiles } from './scripts.fixtures.ts'

const files: Record<string, string> = {
  ...scriptsFiles,
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/two', () => view('two', { title: 'two' }))
  Route.get('/host', () => view('host', { title: 'host' }))
  Route.get('/start', () => view('start', { title: 'start' }))
  Route.get('/lazy', () => view('one', { name: 'lazy-scripted', title: 'lazy' }))
  Route.get('/forged', () => view('forged', { title: 'forged' }))
})
`,
  'resources/views/start.hbs': `{{!< layouts/app}}
<a id="to-two" href="/two" wire:navigate>two</a> <a id="to-forged" href="/forged" wire:navigate>forged</a>`,
  // A note written into the page unescaped: HTML someone else wrote, dressed as a block of assets, without the nonce.
  'app/components/guestbook.ts': `import { Component } from 'kiln-framework/comp'
export default class Guestbook extends Component {
  note = '<script data-comp-asset="0123456789abcdef0123">window.forged = 1</script>'
}
`,
  'resources/views/components/guestbook.hbs': '<div class="guestbook">{{{note}}}</div>',
  'resources/views/forged.hbs': "{{!< layouts/app}}\n@comp('guestbook')",
}

/**
 * The policy docs/development.md shows: scripts and styles by nonce only (no 'self', no 'unsafe-eval'), a new nonce
 * for every response, so a tag added after the page loaded runs only with the page's own nonce.
 */
const nonceOnly = definePlugin({
  name: 'nonce-only-csp',
  boot(app) {
    app.middleware.prependToGroup('global', async (ctx, next) => {
      const nonce = Math.random().toString(36).slice(2)
      ctx.response.headers.set('content-security-policy', `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'`)
      return next()
    })
  },
})

let env: BrowserApp
test.before(async () => {
  env = await browserApp(files, { config: { comp: { csp_safe: true } }, plugins: [nonceOnly] })
})
test.after.always(() => env?.close())

/** A page that records Content-Security-Policy violations, and counts the requests for each path. */
async function watched(t: Parameters<BrowserApp['newPage']>[0]): Promise<TestPage & { requests: Map<string, number> }> {
  const opened = await env.newPage(t)
  await opened.page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
  )
  const requests = new Map<string, number>()
  opened.page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    requests.set(path, (requests.get(path) ?? 0) + 1)
  })
  return { ...opened, requests }
}

const texts = (page: Page, selector: string) => page.$$eval(selector, (els) => els.map((el) => el.textContent))
const global = (page: Page, name: string) => page.evaluate((key) => (window as unknown as Record<string, unknown>)[key], name)

/** Every `$wire` of the page refreshed, one round trip each, answered and applied. */
const refreshAll = (page: Page) =>
  page.evaluate(() =>
    Promise.all((window as unknown as { comp: { all(): Array<{ $refresh(): Promise<unknown> }> } }).comp.all().map((wire) => wire.$refresh())),
  )

test('a script runs once for each component in the page, with $wire (also `this`) setting a property, calling an action and defining a $js action', async (t) => {
  const { page, open, errors } = await watched(t)
  await open('/two')
  await page.waitForFunction(() => [...document.querySelectorAll('.scripted .count')].every((el) => el.textContent === '1'))
  await page.waitForFunction(() => [...document.querySelectorAll('.scripted .greeting')].every((el) => el.textContent === 'hello true'))
  // Every answer names the script again (its component rendered it): it must not run a second time for the same component.
  await refreshAll(page)
  await refreshAll(page)
  t.deepEqual(await texts(page, '.scripted .count'), ['1', '1'])
  t.is(await global(page, 'scriptRuns'), 2)
  // The JavaScript action each script defined, called by wire:click="$js.shout": a function, not code in a string.
  await page.locator('.scripted .shout').nth(1).click()
  await page.waitForFunction(() => [...document.querySelectorAll('.scripted .greeting')].map((el) => el.textContent).join() === 'hello true,shouted')
  t.deepEqual(errors, [], 'no CSP violation, no error')
})

test('assets load once for two components, before their scripts run, and stay after updates', async (t) => {
  const { page, open, errors, requests } = await watched(t)
  await open('/two')
  await page.waitForFunction(() => [...document.querySelectorAll('.charted .seen')].every((el) => el.textContent === 'chart 1'))
  await refreshAll(page)
  t.is(await global(page, 'chartLoads'), 1)
  t.is(requests.get('/chart-lib.js'), 1)
  t.is(requests.get('/chart-lib.css'), 1)
  t.is(await page.locator('script[src="/chart-lib.js"]').count(), 1)
  t.is(await page.locator('head link[href="/chart-lib.css"]').count(), 1)
  // The stylesheet still applies once its components have been morphed by updates.
  t.deepEqual(await page.$$eval('.charted', (els) => els.map((el) => getComputedStyle(el).outlineColor)), ['rgb(255, 0, 0)', 'rgb(255, 0, 0)'])
  t.deepEqual(errors, [], 'no CSP violation, no error')
})

test('components added by an update run their scripts and load their assets, once, under the page nonce', async (t) => {
  const { page, open, errors, requests } = await watched(t)
  await open('/host')
  t.is(await global(page, 'chartLoads'), undefined)
  await page.click('#show')
  await textIs(page, '.scripted .count', '1')
  await textIs(page, '.scripted .greeting', 'hello true')
  await textIs(page, '.charted .seen', 'chart 1')
  t.is(await page.$eval('.charted', (el) => getComputedStyle(el).outlineColor), 'rgb(255, 0, 0)')
  // Hidden, then shown again: new components, whose script runs again; the page has the assets already.
  await page.click('#show')
  await page.waitForSelector('.scripted', { state: 'detached' })
  await page.click('#show')
  await page.waitForFunction(() => (window as unknown as { scriptRuns?: number }).scriptRuns === 2)
  await textIs(page, '.scripted .count', '1')
  await textIs(page, '.charted .seen', 'chart 1')
  t.is(await global(page, 'chartLoads'), 1)
  t.is(requests.get('/chart-lib.js'), 1)
  t.is(await page.locator('script[src="/chart-lib.js"]').count(), 1)
  t.deepEqual(errors, [], 'no CSP violation, no error')
})

test('after a wire:navigate visit, the new page runs its components scripts and loads their assets once, under this page nonce', async (t) => {
  const { page, open, errors, requests } = await watched(t)
  await open('/start')
  await page.click('#to-two')
  await page.waitForFunction(() => document.querySelectorAll('.scripted .count').length === 2)
  await page.waitForFunction(() => [...document.querySelectorAll('.scripted .count')].every((el) => el.textContent === '1'))
  await page.waitForFunction(() => document.querySelectorAll('.charted .seen').length === 2)
  await page.waitForFunction(() => [...document.querySelectorAll('.charted .seen')].every((el) => el.textContent === 'chart 1'))
  t.is(await global(page, 'scriptRuns'), 2)
  t.is(await global(page, 'chartLoads'), 1)
  t.is(requests.get('/chart-lib.js'), 1)
  // Parsing the next page (DOMParser, in the visit itself) reports that page's nonce'd <style> against this page's
  // policy, with or without components on it; the style is never applied from there. Everything else must be clean.
  t.deepEqual(
    errors.filter((line) => !/^Applying inline style violates|^CSP violation: style-src-elem inline$/.test(line)),
    [],
    'no script blocked, no error',
  )
})

test('a lazy component runs its script once it has loaded', async (t) => {
  const { page, open, errors } = await watched(t)
  await open('/lazy')
  await textIs(page, '.lazy-scripted .greeting', 'loaded')
  t.deepEqual(errors, [], 'no CSP violation, no error')
})

test('a wire:navigate visit does not give the page nonce to an assets tag the server did not write', async (t) => {
  const { page, open } = await watched(t)
  await open('/start')
  await page.click('#to-forged')
  await page.waitForSelector('.guestbook', { state: 'attached' })
  await page.waitForFunction(() => document.querySelector('.guestbook')?.hasAttribute('wire:id'))
  await refreshAll(page)
  t.is(await global(page, 'forged'), undefined)
  t.is(await page.locator('head [data-comp-asset="0123456789abcdef0123"]').count(), 0)
})
