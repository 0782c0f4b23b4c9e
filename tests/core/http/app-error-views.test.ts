import test from 'ava'
import { createApp, definePlugin, HttpException } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const routes = definePlugin({
  name: 'error-routes',
  boot(app) {
    app.router.get('/teapot', () => {
      throw new HttpException(418, 'I am a teapot.')
    })
    app.router.get('/gone', () => {
      throw new HttpException(410, 'Gone for good.', { headers: { 'x-why': 'moved' } })
    })
    app.router.get('/boom', () => {
      throw new Error('secret cause')
    })
  },
})

async function appWith(t: { teardown(fn: () => unknown): void }, files: Record<string, string>) {
  const app = await createApp({ root: tempApp(files), env: { APP_ENV: 'test', APP_DEBUG: 'false' }, plugins: [routes] })
  t.teardown(() => app.close())
  return new TestClient(app)
}

test("an app's resources/views/errors/<status>.hbs, then errors/4xx.hbs or 5xx.hbs, render its error pages with the status, message and headers", async (t) => {
  const client = await appWith(t, {
    'resources/views/layouts/app.hbs': '<html><title>{{title}}</title><body>{{{body}}}</body></html>',
    'resources/views/errors/404.hbs': '{{!< layouts/app}}\n<h1>Lost ({{status}})</h1><a href="/">home</a>',
    'resources/views/errors/4xx.hbs': '{{!< layouts/app}}\n<h1>{{status}}: {{message}}</h1>',
    'resources/views/errors/5xx.hbs': '<h1>Our fault ({{status}}): {{message}}</h1>',
  })
  const missing = await client.get('/nowhere', { accept: 'text/html' })
  t.is(missing.status, 404)
  t.is(await missing.text(), '<html><title>Not found.</title><body><h1>Lost (404)</h1><a href="/">home</a></body></html>')
  const gone = await client.get('/gone', { accept: 'text/html' })
  t.is(gone.status, 410)
  t.is(gone.header('x-why'), 'moved')
  t.regex(await gone.text(), /<h1>410: Gone for good\.<\/h1>/)
  const boom = await client.get('/boom', { accept: 'text/html' })
  t.is(boom.status, 500)
  t.is(await boom.text(), '<h1>Our fault (500): Server error.</h1>')
  const json = await client.get('/teapot', { accept: 'application/json' })
  t.deepEqual(await json.json(), { message: 'I am a teapot.' })
})

test('without error views, or when the view itself fails, the small built-in page is sent: never a second error', async (t) => {
  const plain = await appWith(t, {})
  const page = await plain.get('/nowhere', { accept: 'text/html' })
  t.is(page.status, 404)
  t.regex(await page.text(), /<h1>404 · Not found\.<\/h1>/)

  const broken = await appWith(t, { 'resources/views/errors/404.hbs': '{{#each}}' })
  const fallback = await broken.get('/nowhere', { accept: 'text/html' })
  t.is(fallback.status, 404)
  t.regex(await fallback.text(), /<h1>404 · Not found\.<\/h1>/)
})
