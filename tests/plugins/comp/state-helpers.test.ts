import test from 'ava'
import { page, update } from './comp-fixtures.ts'
import { call, featureApp } from './feature-app.ts'

const files = {
  'app/components/draft.ts': `import { Component } from 'kiln-framework/comp'
export default class Draft extends Component {
  title = 'Untitled'
  body = ''
  tags: string[] = []
  seen: unknown = null
  edit() { this.title = 'Kiln'; this.body = 'Fire'; this.tags = ['a'] }
  pullTitle() { this.seen = this.pull('title') }
  pullSome() { this.seen = this.pull(['title', 'tags']) }
  pullAll() { const all = this.pull(); this.seen = Object.keys(all) }
  onlySome() { this.seen = [this.only(['title', 'body']), this.only('tags')] }
  exceptSome() { this.seen = Object.keys(this.except(['seen', 'body'])) }
  onlyUnknown() { this.seen = this.only('nope' as never) }
  render() { return '<div>{{title}}</div>' }
}
`,
}

test('pull() returns values and sets them back to their initial values: one name, a list, or all', async (t) => {
  const { client } = await featureApp(t, files)
  const { snapshot, endpoint } = await page(client, '/page/draft')
  const one = await call(client, endpoint, snapshot, { calls: [{ method: 'edit' }, { method: 'pullTitle' }] })
  t.is(one.serverMemo.data.seen, 'Kiln')
  t.is(one.serverMemo.data.title, 'Untitled')
  t.is(one.serverMemo.data.body, 'Fire', 'the others are kept')
  const some = await call(client, endpoint, snapshot, { calls: [{ method: 'edit' }, { method: 'pullSome' }] })
  t.deepEqual(some.serverMemo.data.seen, { title: 'Kiln', tags: ['a'] })
  t.is(some.serverMemo.data.title, 'Untitled')
  t.deepEqual(some.serverMemo.data.tags, [])
  t.is(some.serverMemo.data.body, 'Fire')
  const all = await call(client, endpoint, snapshot, { calls: [{ method: 'edit' }, { method: 'pullAll' }] })
  t.deepEqual(all.serverMemo.data.seen, ['title', 'body', 'tags', 'seen'])
  t.is(all.serverMemo.data.body, '')
})

test('only() and except() give a subset of the public state; only() refuses a name that is not public state', async (t) => {
  const { client } = await featureApp(t, files, { APP_DEBUG: 'true' })
  const { snapshot, endpoint } = await page(client, '/page/draft')
  const only = await call(client, endpoint, snapshot, { calls: [{ method: 'edit' }, { method: 'onlySome' }] })
  t.deepEqual(only.serverMemo.data.seen, [{ title: 'Kiln', body: 'Fire' }, { tags: ['a'] }])
  const except = await call(client, endpoint, snapshot, { calls: [{ method: 'exceptSome' }] })
  t.deepEqual(except.serverMemo.data.seen, ['title', 'tags'])
  const unknown = await update(client, endpoint, snapshot, { calls: [{ method: 'onlyUnknown' }] })
  t.is(unknown.status, 500)
  t.regex(JSON.stringify(await unknown.json()), /Draft has no public property \\"nope\\"/)
  for (const method of ['pull', 'only', 'except'])
    t.is((await update(client, endpoint, snapshot, { calls: [{ method, params: ['title'] }] })).status, 403, `${method}() is not an action`)
})
