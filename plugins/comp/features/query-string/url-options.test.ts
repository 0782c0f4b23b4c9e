import test from 'ava'
import { KilnError } from '../../../../core/index.ts'
import { compApp, next, page, update, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { Component } from '../../component.ts'
import { url, urlProperties } from './url.ts'

const files = {
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => { Route.get('/page/{name}', ({ params }) => view('page', { name: params.name, title: 'Page' })) })
`,
  'resources/views/page.hbs': '{{!< layouts/app}}\n{{{comp name}}}',
  'app/components/finder.ts': `import { Component, url } from 'kiln-framework/comp'
export default class Finder extends Component {
  static queryString = ['page']
  page = 1
  @url({ as: 'q', history: true, except: '' }) search = ''
  @url({ keep: true }) sort = 'new'
  @url({ as: 't' }) tags: string[] = []
}
`,
  'resources/views/components/finder.hbs': '<div>{{search}}|{{sort}}|{{page}}|{{#each tags}}{{this}},{{/each}}</div>',
}

/** One update that must succeed: its JSON answer. */
async function send(client: Parameters<typeof update>[0], endpoint: string, snapshot: PageSnapshot, body: Parameters<typeof update>[3]) {
  const res = await update(client, endpoint, snapshot, body)
  const json = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(json)}`)
  return json
}

test('the first render reads each property by its key; the memo lists the keys and what the URL must show at once', async (t) => {
  const { client } = await compApp(t, files)
  const read = await page(client, '/page/finder?q=kiln&sort=old&t=a&page=3&search=ignored')
  t.regex(read.html, />kiln\|old\|3\|<!--\[if BLOCK\]><!\[endif\]-->a,<!--\[if ENDBLOCK\]><!\[endif\]--><\/div>/, 'a list shown by one key is a list of one')
  t.deepEqual(read.snapshot.serverMemo.url, ['page', 'q', 'sort', 't'])
  t.false('urlInit' in read.snapshot.serverMemo, 'the URL already shows the state')

  const bare = await page(client, '/page/finder')
  t.deepEqual(bare.snapshot.serverMemo.urlInit, { sort: 'new' }, 'keep: the key is written even with the initial value')
})

test('updates answer the URL values by key, null where the key leaves; a history property that changed asks for a push', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/finder')
  const typed = await send(client, endpoint, snapshot, { updates: [['search', 'a']] })
  t.deepEqual(typed.effects.queryString, { page: null, q: 'a', sort: 'new', t: null })
  t.true(typed.effects.queryPush)

  const sorted = await send(client, endpoint, next(snapshot, typed), {
    updates: [
      ['sort', 'new'],
      ['page', 2],
      ['tags', ['x', 'y']],
    ],
  })
  t.deepEqual(sorted.effects.queryString, { page: 2, q: 'a', sort: 'new', t: ['x', 'y'] })
  t.false('queryPush' in sorted.effects, 'only history properties push')

  const cleared = await send(client, endpoint, next(snapshot, sorted), { updates: [['search', '']] })
  t.is(cleared.effects.queryString.q, null, 'except: the value that removes the key')
  t.true(cleared.effects.queryPush)
})

test('$syncUrl (back and forward) sets properties from a query; a missing key restores except or the initial value; nothing is pushed', async (t) => {
  const { client } = await compApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/finder?q=one&sort=old&page=4')
  const restored = await send(client, endpoint, snapshot, { calls: [{ method: '$syncUrl', params: [{ q: 'two', t: 'z' }] }] })
  t.regex(restored.effects.html, />two\|new\|1\|<!--\[if BLOCK\]><!\[endif\]-->z,<!--\[if ENDBLOCK\]><!\[endif\]--><\/div>/)
  t.false('queryPush' in restored.effects)
  t.is((await update(client, endpoint, snapshot, { calls: [{ method: '$syncUrl', params: ['q=two'] }] })).status, 422)
  const bad = await send(client, endpoint, snapshot, { calls: [{ method: '$syncUrl', params: [{ page: 'many' }] }] })
  t.regex(
    bad.effects.html,
    />\|new\|4\|<!--\[if BLOCK\]><!\[endif\]--><!--\[if ENDBLOCK\]><!\[endif\]--><\/div>/,
    'a value that does not fit is ignored (page stays 4), as on a first render',
  )
})

test('@url refuses prototype names as keys when the class is declared, and two properties with one key', (t) => {
  for (const as of ['__proto__', 'constructor', '']) {
    const error = t.throws(() => url({ as }), { instanceOf: KilnError })
    t.is(error?.code, 'E_COMP_URL_KEY')
  }
  class Twice extends Component {
    @url({ as: 'q' }) a = ''
    @url({ as: 'q' }) b = ''
  }
  t.is(t.throws(() => urlProperties(Twice), { instanceOf: KilnError })?.code, 'E_COMP_URL_KEY')
})
