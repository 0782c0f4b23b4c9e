import { unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp, view } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

test('views.forget(file): a cached view, its layout and a partial are read again from disk, the other views stay compiled', async (t) => {
  const root = tempApp({
    'resources/views/layouts/app.hbs': '<main>{{body}}</main>',
    'resources/views/partials/nav.hbs': '<nav>one</nav>',
    'resources/views/home.hbs': '{{!< layouts/app}}\n{{> partials/nav}}<h1>home</h1>',
    'resources/views/about.hbs': '<h1>about</h1>',
  })
  const app = await createApp({ root, env: { APP_ENV: 'test' }, config: { views: { cache: true } } })
  t.teardown(() => app.close())
  app.router.get('/', () => view('home'))
  app.router.get('/about', () => view('about'))
  const page = async (path: string) => (await app.request(path)).text()
  t.is(await page('/'), '<main><nav>one</nav><h1>home</h1></main>')
  t.is(await page('/about'), '<h1>about</h1>')

  const views = join(root, 'resources/views')
  writeFileSync(join(views, 'home.hbs'), '{{!< layouts/app}}\n{{> partials/nav}}<h1>home, edited</h1>')
  writeFileSync(join(views, 'partials/nav.hbs'), '<nav>two</nav>')
  writeFileSync(join(views, 'layouts/app.hbs'), '<main class="wide">{{body}}</main>')
  writeFileSync(join(views, 'about.hbs'), '<h1>about, edited</h1>')
  t.is(await page('/'), '<main><nav>one</nav><h1>home</h1></main>', 'cached until forgotten')

  for (const file of ['home.hbs', 'partials/nav.hbs', 'layouts/app.hbs']) app.views.forget(join(views, file))
  app.views.forget(join(root, 'routes/web.ts')) // not a view: ignored
  t.is(await page('/'), '<main class="wide"><nav>two</nav><h1>home, edited</h1></main>')
  t.is(await page('/about'), '<h1>about</h1>', 'a view nobody forgot stays compiled')

  unlinkSync(join(views, 'about.hbs'))
  app.views.forget(join(views, 'about.hbs'))
  t.is((await app.request('/about')).status, 500, 'a deleted view is gone')
})
