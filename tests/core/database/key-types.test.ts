import { randomUUID } from 'node:crypto'
import test from 'ava'
import { Model, ModelNotFoundError, runWithApp, type KeyType } from '../../../core/index.ts'
import { databaseApp } from '../../fixtures/database.ts'

/** A model keyed by a PostgreSQL `uuid` column (text on SQLite). */
class Invoice extends Model {
  static table = 'invoices'
  static keyType: KeyType = 'uuid'
  static fillable = ['id', 'total']
  declare id: string
}

/** The same table, with the key declared as any string. */
class LooseInvoice extends Model {
  static table = 'invoices'
  static keyType: KeyType = 'string'
}

const migration = `
export async function up(db) {
  await db.schema.createTable('invoices').addColumn('id', 'uuid', (c) => c.primaryKey()).addColumn('total', 'integer')
    .addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
}
export async function down(db) {
  await db.schema.dropTable('invoices').execute()
}
`

const routes = `
import { defineRoutes, Model } from 'kiln-framework'
class Invoice extends Model {
  static table = 'invoices'
  static keyType = 'uuid'
}
export default defineRoutes((Route) => {
  Route.get('/invoices/{id}', ({ params }) => Invoice.findOrFail(params.id))
})
`

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: a uuid key that is not a UUID finds nothing without asking the database, inside a transaction too`, async (t) => {
    const app = await databaseApp(t, dialect, { 'database/migrations/0002_invoices.ts': migration })
    await runWithApp(app, async () => {
      const invoice = await Invoice.create({ id: randomUUID(), total: 10 })
      t.is((await Invoice.find(invoice.id))?.getAttribute('total'), 10)
      t.is((await Invoice.find(invoice.id.toUpperCase()))?.getAttribute('total'), dialect === 'pgsql' ? 10 : undefined)
      for (const key of ['not-a-uuid', '1', `${invoice.id}x`, 42]) t.is(await Invoice.find(key), undefined, String(key))
      await t.throwsAsync(Invoice.findOrFail('nope'), { instanceOf: ModelNotFoundError })
      // On PostgreSQL a refused statement would abort the transaction: the lookup must not reach the database.
      const total = await app.service('db').transaction(async () => {
        t.is(await Invoice.find('not-a-uuid'), undefined)
        return (await Invoice.create({ id: randomUUID(), total: 20 })).getAttribute('total')
      })
      t.is(total, 20)
    })
  })

  test(`${dialect}: a key the column's type refuses is "not found" even when the model takes any string`, async (t) => {
    const app = await databaseApp(t, dialect, { 'database/migrations/0002_invoices.ts': migration })
    await runWithApp(app, async () => {
      await Invoice.create({ id: randomUUID(), total: 10 })
      t.is(await LooseInvoice.find('not-a-uuid'), undefined)
      t.is(await LooseInvoice.find('99999999999999999999999'), undefined)
    })
  })

  test(`${dialect}: a route that finds a uuid-keyed model answers 404 for a malformed key, never a 500`, async (t) => {
    const app = await databaseApp(t, dialect, { 'database/migrations/0002_invoices.ts': migration, 'routes/api.ts': routes })
    const id = await runWithApp(app, async () => (await Invoice.create({ id: randomUUID(), total: 10 })).id)
    const get = (key: string) => app.request(`/invoices/${key}`, { headers: { accept: 'application/json' } })
    t.is((await get(id)).status, 200)
    for (const key of ['nope', '99999999999', "1';--"]) {
      const res = await get(key)
      t.is(res.status, 404, key)
      t.like(await res.json(), { message: `No Invoice with key ${key}.` })
    }
  })
}
