import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { runWithApp, type Application } from '../../../core/index.ts'
import { createTestApp, refreshDatabase } from '../../../core/testing/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { User } from '../../../app-template/app/models/user.ts'
import { promisesOf } from '../../fixtures/count-promises.ts'

// On Node 20 every promise a request makes runs AsyncLocalStorage's hooks, so the promises of a token request are
// a cost the machine's load cannot blur. Counted, not timed (issue 25, P1): a change that adds promises fails here.

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

async function tokenApp(t: ExecutionContext, config: Record<string, unknown> = {}): Promise<{ app: Application; token: string }> {
  const app = await createTestApp({ root, env: { DB_CONNECTION: 'sqlite' }, config })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const token = await runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    return (await user.createToken('count')).plainTextToken
  })
  return { app, token }
}

/** The promises of one `GET /user` with `token`, from the server's handler to its answer, and the answer's status. */
async function tokenPromises(app: Application, token: string): Promise<{ count: number; status: number }> {
  const { count, response } = await promisesOf(app, '/user', { authorization: `Bearer ${token}`, accept: 'application/json' })
  return { count, status: response.status }
}

for (const [label, config] of [
  ['without the cache', {}],
  ['with the cache', { tok: { cache: { enabled: true } } }],
] as const) {
  test.serial(
    `SQLite, ${label}: a token request makes no promise (was 15, then 5), as an unauthenticated api route makes none, and a wrong secret is 401`,
    async (t) => {
      const { app, token } = await tokenApp(t, config)
      const { count, status } = await tokenPromises(app, token)
      t.is(status, 200)
      t.is(count, 0, `${count} promises`)
      const wrong = `${token.slice(0, -49)}${'A'.repeat(40)}${token.slice(-8)}`
      t.is((await tokenPromises(app, wrong)).status, 401)
    },
  )
}

test.serial('the guard’s authenticate() rejects, never throws, when the read fails at once (SQLite, the table gone)', async (t) => {
  const { app, token } = await tokenApp(t)
  const guard = app.service('auth').guard('tok')
  app.router.group({ middleware: ['api'] }, () =>
    app.router.get('/probe', async (ctx) => {
      let promise: Promise<unknown>
      try {
        promise = guard.authenticate(ctx)
      } catch {
        return { outcome: 'thrown' }
      }
      return {
        outcome: await promise.then(
          () => 'resolved',
          () => 'rejected',
        ),
      }
    }),
  )
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }
  // The first request compiles the read; after it the read runs synchronously.
  t.deepEqual(await (await app.request('/probe', { headers })).json(), { outcome: 'resolved' })
  const { kysely } = await app.service('db').connection()
  const { sql } = await import('kysely')
  await sql`drop table personal_access_tokens`.execute(kysely)
  t.deepEqual(await (await app.request('/probe', { headers })).json(), { outcome: 'rejected' })
})
