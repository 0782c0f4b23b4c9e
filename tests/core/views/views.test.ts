import test from 'ava'
import { createApp, definePlugin, view, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const files = {
  'resources/views/layouts/app.hbs': '<html><title>{{title}}</title><body>{{> partials/nav}}{{{body}}}</body></html>',
  'resources/views/partials/nav.hbs': '<nav>{{appName}}</nav>',
  'resources/views/home.hbs': '{{!< layouts/app}}\n<h1>{{shout greeting}}</h1><p>{{html}}</p>@year',
  'resources/views/layouts/card.hbs': '<div class="card"><h2>{{title}}</h2>{{> @partial-block}}</div>',
  'resources/views/block.hbs': '{{#> layouts/card title="Block"}}inside {{appName}}{{/layouts/card}}',
  'resources/views/form.hbs': '<form method="post">{{{csrfField}}}</form>',
}

const shouter = definePlugin({
  name: 'shouter',
  boot(app: Application) {
    app.views.helper('shout', (text: string) => `${String(text).toUpperCase()}!`)
    app.views.preprocess((source) => source.replaceAll('@year', '<span>2026</span>'))
    app.router.get('/', () => view('home', { title: 'Home', greeting: 'hello', html: '<b>x</b>' }))
    app.router.get('/missing', () => view('nope'))
    app.router.get('/gone', () => view('home', { title: 'Gone', greeting: 'bye' }).status(410))
    app.router.group({ middleware: ['web'] }, () => app.router.get('/form', () => view('form')))
  },
})

async function makeApp(t: { teardown(fn: () => unknown): void }, name = 'Shop') {
  const app = await createApp({ root: tempApp(files), env: { APP_ENV: 'test', APP_NAME: name }, plugins: [shouter], config: { session: { driver: 'memory' } } })
  t.teardown(() => app.close())
  return app
}

test('a view with its layout, a partial, a plugin helper and a plugin preprocessor; data is escaped', async (t) => {
  const app = await makeApp(t)
  const res = await app.request('/')
  t.is(res.status, 200)
  t.regex(res.headers.get('content-type')!, /text\/html/)
  t.is(await res.text(), '<html><title>Home</title><body><nav>Shop</nav><h1>HELLO!</h1><p>&lt;b&gt;x&lt;/b&gt;</p><span>2026</span></body></html>')
  t.is((await app.request('/gone')).status, 410)
})

test('partial blocks work as layouts too', async (t) => {
  const app = await makeApp(t)
  t.is(await app.views.render('block'), '<div class="card"><h2>Block</h2>inside Shop</div>')
})

test('a missing view is a clear error (500 page, logged), naming the path searched', async (t) => {
  const app = await makeApp(t)
  await t.throwsAsync(app.views.render('nope'), { message: /View "nope" not found: looked for .*resources\/views\/nope\.hbs/ })
  t.is((await app.request('/missing')).status, 500)
  await t.throwsAsync(app.views.render('../secrets'), { message: /not found/ })
})

test("web views get the CSRF token from the session through the csrfField helper, masked (not the cookie's plain string)", async (t) => {
  const app = await makeApp(t)
  const res = await app.request('/form')
  const html = await res.text()
  const token = /name="_token" value="([A-Za-z0-9_-]{107})"/.exec(html)?.[1]
  t.truthy(token)
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='))
  t.regex(cookie ?? '', /^XSRF-TOKEN=[A-Za-z0-9]{40};/)
  t.false(cookie!.includes(token!))
})

test('two apps keep their own helpers and data', async (t) => {
  const a = await makeApp(t, 'A')
  const b = await makeApp(t, 'B')
  a.views.helper('shout', () => 'from-a')
  t.regex(await a.views.render('home', { greeting: 'x' }), /from-a/)
  t.regex(await b.views.render('home', { greeting: 'x' }), /X!/)
})

test('a helper may return a Promise: the view waits for it; a SafeString goes in raw, anything else is escaped, in views, partials and layouts', async (t) => {
  const app = await createApp({
    root: tempApp({
      'resources/views/layouts/main.hbs': '<main>{{slow "layout"}}{{{body}}}</main>',
      'resources/views/partials/item.hbs': '<li>{{slow name}}</li>',
      'resources/views/list.hbs': '{{!< layouts/main}}\n<ul>{{#each names}}{{> partials/item name=this}}{{/each}}</ul>{{rich "b"}}{{slow "<i>"}}',
    }),
    env: { APP_ENV: 'test' },
  })
  t.teardown(() => app.close())
  const { default: Handlebars } = await import('handlebars')
  app.views.helper('slow', async (value: string) => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    return `~${value}~`
  })
  app.views.helper('rich', async (tag: string) => new Handlebars.SafeString(`<${tag}>bold</${tag}>`))
  const html = await app.views.render('list', { names: ['a', 'b'] })
  t.is(html, '<main>~layout~<ul><li>~a~</li><li>~b~</li></ul><b>bold</b>~&lt;i&gt;~</main>')
})

test('renderInline renders a template given as source with helpers, partials and shared data', async (t) => {
  const app = await makeApp(t)
  t.is(await app.views.renderInline('<p>{{shout word}} {{appName}}</p>{{> partials/nav}}', { word: 'hi' }), '<p>HI! Shop</p><nav>Shop</nav>')
})
