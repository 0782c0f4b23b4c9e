import test, { type ExecutionContext } from 'ava'
import { createApp, csrfToken, view, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { Browser } from '../../fixtures/session-browser.ts'

const LAYOUT = '<!doctype html><html><head><meta name="csrf-token" content="{{csrfToken}}"></head><body>{{{body}}}</body></html>'

async function makeApp(t: ExecutionContext): Promise<Application> {
  const app = await createApp({
    root: tempApp({
      'resources/views/layouts/main.hbs': LAYOUT,
      'resources/views/todos.hbs': '{{!< layouts/main}}\n<p>Filter: {{filter}}</p><form method="post">{{csrfField}}</form>',
    }),
    env: { APP_ENV: 'test' },
    config: { session: { driver: 'memory' } },
  })
  t.teardown(() => app.close())
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/todos', ({ request }) => view('todos', { filter: request.input('filter') }))
    app.router.get('/tokens', (ctx) => ({ tokens: [csrfToken(ctx), csrfToken(ctx)] }))
    app.router.post('/todos', () => ({ ok: true }))
  })
  return app
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
/** Another base64url character, differing in its highest bit: one the decoder cannot ignore, even in the last place. */
const flipped = (char: string) => BASE64URL[BASE64URL.indexOf(char) ^ 32]!

const metaToken = (html: string) => /<meta name="csrf-token" content="([^"]*)">/.exec(html)?.[1] ?? ''
const fieldToken = (html: string) => /name="_token" value="([^"]*)"/.exec(html)?.[1] ?? ''

const post = (browser: Browser, headers: Record<string, string>, body: unknown = {}) =>
  browser.request('/todos', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } })

test('two renders of the same page in one session carry different token strings, and each is accepted', async (t) => {
  const browser = new Browser(await makeApp(t))
  const first = await (await browser.request('/todos?filter=abc', { headers: { accept: 'text/html' } })).text()
  const second = await (await browser.request('/todos?filter=abc', { headers: { accept: 'text/html' } })).text()
  t.regex(metaToken(first), /^[A-Za-z0-9_-]{107}$/)
  t.is(fieldToken(first), metaToken(first), 'one render, one token')
  t.not(metaToken(first), metaToken(second))
  t.false(first.includes(browser.xsrf()), "the session's token itself is never in the page")
  for (const token of [metaToken(first), metaToken(second)]) {
    t.is((await post(browser, { 'x-csrf-token': token })).status, 200)
    t.is((await post(browser, {}, { _token: token })).status, 200)
    const form = await browser.request('/todos', { method: 'POST', body: `_token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    t.is(form.status, 200)
  }
  const [a, b] = (await (await browser.request('/tokens')).json()).tokens as string[]
  t.not(a, b, 'csrfToken(ctx) masks afresh on each call')
  t.is((await post(browser, { 'x-csrf-token': a! })).status, 200)
})

test('the plain token (the XSRF-TOKEN cookie, SPA clients) is still accepted', async (t) => {
  const browser = new Browser(await makeApp(t))
  await browser.request('/todos')
  t.regex(browser.xsrf(), /^[A-Za-z0-9]{40}$/)
  t.is((await post(browser, { 'x-xsrf-token': browser.xsrf() })).status, 200)
  t.is((await post(browser, { 'x-csrf-token': browser.xsrf() })).status, 200)
})

test('a tampered masked token, or one masked for another session, is 419', async (t) => {
  const app = await makeApp(t)
  const browser = new Browser(app)
  const other = new Browser(app)
  const token = metaToken(await (await browser.request('/todos', { headers: { accept: 'text/html' } })).text())
  const others = metaToken(await (await other.request('/todos', { headers: { accept: 'text/html' } })).text())
  const flip = (at: number) => `${token.slice(0, at)}${flipped(token[at]!)}${token.slice(at + 1)}`
  for (const bad of [flip(0), flip(30), flip(80), flip(106), others]) {
    const res = await post(browser, { 'x-csrf-token': bad })
    t.is(res.status, 419, bad)
    t.deepEqual(await res.json(), { message: 'CSRF token mismatch.' })
  }
})

test('malformed tokens (wrong length, bad base64, empty, huge, not a string) are 419, never a 500', async (t) => {
  const browser = new Browser(await makeApp(t))
  const token = metaToken(await (await browser.request('/todos', { headers: { accept: 'text/html' } })).text())
  const plain = browser.xsrf()
  const strings = [
    '',
    'A',
    'AA',
    'AAAA',
    token.slice(0, -1),
    token.slice(0, -2),
    token.slice(1),
    `${token}A`,
    `${token}AA`,
    `${token}==`,
    `+/${token.slice(2)}`,
    `${token.slice(0, 50)}!${token.slice(51)}`,
    `${token.slice(0, 50)} ${token.slice(51)}`,
    `${token.slice(0, 50)}é${token.slice(51)}`,
    plain.slice(0, 39),
    `${plain}x`,
    Buffer.from(plain).toString('base64url'),
    Buffer.from(plain + plain).toString('base64url'),
    'A'.repeat(107),
    'A'.repeat(108),
    '%00'.repeat(40),
    'A'.repeat(5000),
    token.repeat(2000),
  ]
  for (const bad of strings) {
    t.is((await post(browser, {}, { _token: bad })).status, 419, `_token ${bad.slice(0, 40)} (${bad.length})`)
    if (bad !== '' && /^[\x21-\x7e]*$/.test(bad)) t.is((await post(browser, { 'x-csrf-token': bad })).status, 419, `header ${bad.slice(0, 40)}`)
  }
  for (const bad of [null, 1, true, [token], { token }, [plain]]) {
    const res = await post(browser, {}, { _token: bad })
    t.is(res.status, 419, JSON.stringify(bad))
  }
  t.is((await post(browser, { 'x-csrf-token': token })).status, 200, 'the real one still passes after all that')
})
