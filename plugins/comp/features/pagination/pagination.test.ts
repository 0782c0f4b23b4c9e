import { join } from 'node:path'
import test from 'ava'
import { refreshDatabase } from '../../../../core/testing/index.ts'
import { compApp, next, snapshots, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'

test('pagination: WithPagination pages a model query, keeps ?page= in the URL, and renders links that call gotoPage', async (t) => {
  const files = {
    'database/migrations/0001_items.ts': `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('items').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute() }
export async function down(db) { await db.schema.dropTable('items').execute() }
`,
    'app/models/item.ts':
      "import { Model } from 'kiln-framework'\nexport class Item extends Model { static table = 'items'; static fillable = ['name']; declare name: string }\n",
    'app/components/item-list.ts': `import { view } from 'kiln-framework'
import { Component, WithPagination } from 'kiln-framework/comp'
import { Item } from '../models/item.ts'
export default class ItemList extends WithPagination(Component) {
  async render() { return view('components/item-list', { items: await this.paginate(Item.query().orderBy('id'), 2) }) }
}
`,
    'resources/views/components/item-list.hbs': '<div><ul>{{#each items.data}}<li>{{name}}</li>{{/each}}</ul>{{{paginationLinks items}}}</div>',
    'resources/views/list.hbs': "{{!< layouts/app}}\n@comp('item-list')",
    'routes/web.ts':
      "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/list', () => view('list')) })\n",
  }
  const { app, client } = await compApp(t, files)
  await refreshDatabase(app)
  const { runWithApp } = await import('../../../../core/index.ts')
  const { Item } = await import(join(app.root, 'app/models/item.ts'))
  await runWithApp(app, async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await Item.create({ name })
  })
  const first = await (await client.get('/list?page=2', { accept: 'text/html' })).text()
  t.regex(first, /<li>c<\/li><li>d<\/li>/, '?page=2 from the URL')
  t.regex(first, /<button type="button" wire:click="gotoPage\(2\)" aria-current="page">2<\/button>/)
  const snapshot = snapshots(first)[0]!
  const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(first)![1]!.replace(/&amp;/g, '&')
  const third = await (await update(client, endpoint, snapshot, { calls: [{ method: 'gotoPage', params: [3] }] })).json()
  t.regex(third.effects.html, /<li>e<\/li><!--\[if ENDBLOCK\]><!\[endif\]--><\/ul>/)
  t.deepEqual(third.effects.queryString, { page: 3 })
  const back = await (await update(client, third.effects.endpoint, next(snapshot, third), { calls: [{ method: 'gotoPage', params: [1] }] })).json()
  t.deepEqual(back.effects.queryString, { page: null }, 'page 1 leaves the URL')
  const beyond = await (await update(client, back.effects.endpoint, next(snapshot, back), { calls: [{ method: 'gotoPage', params: [99] }] })).json()
  t.is(beyond.serverMemo.data.page, 3, 'a page past the end shows the last one')
})
