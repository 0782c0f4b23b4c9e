import { createHash } from 'node:crypto'
import test, { type ExecutionContext } from 'ava'
import { sql } from 'kysely'
import { createApp, Migrator, Model, runWithApp } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { tok } from '../../../plugins/tok/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { connectionFor } from '../../fixtures/database.ts'

class Member extends Model {
  static table = 'members'
  static fillable = ['name', 'api_token']
  static hidden = ['api_token']
  declare id: number
  declare name: string
}

const migration = `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('members').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('api_token', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute() }`

async function makeApp(t: ExecutionContext, hash: boolean, dialect: 'sqlite' | 'pgsql' = 'sqlite') {
  const connection = connectionFor(dialect)
  const app = await createApp({
    root: tempApp({ 'database/migrations/0001_members.ts': migration }),
    env: { APP_ENV: 'test' },
    plugins: [tok()],
    config: {
      database: { default: 'main', connections: { main: connection } },
      auth: { guards: { api: { driver: 'token', provider: 'members', hash } }, providers: { members: { driver: 'model', model: () => Member } } },
    },
  })
  if (dialect === 'pgsql') {
    const db = app.service('db')
    await sql.raw(`CREATE SCHEMA ${String(connection.schema)}`).execute((await db.connection('main')).kysely)
    t.teardown(async () => {
      await sql
        .raw(`DROP SCHEMA ${String(connection.schema)} CASCADE`)
        .execute((await db.connection('main')).kysely)
        .catch(() => {})
      await app.close()
    })
  } else t.teardown(() => app.close())
  await new Migrator(app).migrate()
  const stored = hash ? createHash('sha256').update('demo-token-123').digest('hex') : 'demo-token-123'
  await runWithApp(app, () => Member.create({ name: 'Demo', api_token: stored }))
  app.router.group({ middleware: ['api'] }, () => app.router.get('/me', ({ request }) => request.user()).middleware(['auth:api']))
  return app
}

for (const hash of [false, true]) {
  test(`the classic token driver (hash: ${hash}) reads a Bearer token or ?api_token=, and refuses others`, async (t) => {
    const app = await makeApp(t, hash)
    const client = new TestClient(app)
    t.deepEqual(await (await client.json('GET', '/me', undefined, { authorization: 'Bearer demo-token-123' })).json(), {
      id: 1,
      name: 'Demo',
      created_at: (await runWithApp(app, () => Member.find(1)))!.toDict().created_at,
      updated_at: (await runWithApp(app, () => Member.find(1)))!.toDict().updated_at,
    })
    t.is((await client.json('GET', '/me?api_token=demo-token-123')).status, 200)
    t.is((await client.json('GET', '/me?api_token=wrong')).status, 401)
    t.is((await client.json('GET', '/me', undefined, { authorization: 'Bearer wrong' })).status, 401)
    t.is((await client.json('GET', '/me')).status, 401)
    if (hash)
      t.is(
        (await client.json('GET', `/me?api_token=${createHash('sha256').update('demo-token-123').digest('hex')}`)).status,
        401,
        'the stored hash itself is not a token',
      )
  })
}

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: the classic token driver answers 401, never a 500, for tokens that look like ids of any size`, async (t) => {
    const app = await makeApp(t, false, dialect)
    const client = new TestClient(app)
    for (const token of ['99999999999', '-2147483649', '99999999999999999999999', '1e999', '0x1f', '1']) {
      t.is((await client.json('GET', '/me', undefined, { authorization: `Bearer ${token}` })).status, 401, token)
      t.is((await client.json('GET', `/me?api_token=${token}`)).status, 401, token)
    }
    t.is((await client.json('GET', '/me?api_token[]=demo-token-123')).status, 401, 'an array is not a token')
    t.is((await client.json('GET', '/me?api_token=demo-token-123')).status, 200)
  })
}
