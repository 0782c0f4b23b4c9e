import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { Event, runWithApp, type Application } from '../../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../../core/testing/index.ts'
import { PersonalAccessToken, TokenAuthenticated } from '../../../plugins/tok/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { User } from '../../../app-template/app/models/user.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

async function setup(t: ExecutionContext, config: Record<string, unknown> = {}): Promise<{ app: Application; user: User }> {
  const app = await createTestApp({ root, config })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const user = await runWithApp(app, async () => {
    await seed()
    return (await User.query().where('email', '=', 'test@example.com').first())!
  })
  app.router.group({ middleware: ['api'] }, () => {
    app.router
      .get('/abilities', ({ request }) => ({ ok: true, can: request.user<User>()!.tokenCan('orders:read') }))
      .middleware(['auth:tok', 'abilities:orders:read,orders:write'])
    app.router.get('/ability', () => ({ ok: true })).middleware(['auth:tok', 'ability:orders:read,admin'])
    app.router
      .post('/revoke-current', async ({ request }) => {
        await request.user<User>()!.currentAccessToken()!.delete()
        return { ok: true }
      })
      .middleware(['auth:tok'])
  })
  return { app, user }
}

const bearer = (app: Application, token: string, path = '/user') => new TestClient(app).json('GET', path, undefined, { authorization: `Bearer ${token}` })

test('createToken returns {id}|{secret}; only the SHA-256 is stored; GET /user answers the user without the password hash', async (t) => {
  const { app, user } = await setup(t)
  const { accessToken, plainTextToken } = await runWithApp(app, () => user.createToken('cli'))
  const [id, secret] = plainTextToken.split('|')
  t.is(Number(id), accessToken.id)
  t.regex(secret!, /^[A-Za-z0-9]{40}[a-f0-9]{8}$/)
  const stored = await runWithApp(app, () => PersonalAccessToken.find(accessToken.id))
  t.regex(stored!.token, /^[a-f0-9]{64}$/)
  t.false(stored!.token.includes(secret!))
  t.deepEqual(stored!.abilities, ['*'])
  t.false('token' in stored!.toDict())
  const res = await bearer(app, plainTextToken)
  t.is(res.status, 200)
  const body = await res.json()
  t.is(body.email, 'test@example.com')
  t.false('password' in body)
})

test('malformed, unknown, wrong, expired and revoked tokens are all 401 {"message":"Unauthenticated."}', async (t) => {
  const { app, user } = await setup(t)
  const { accessToken, plainTextToken } = await runWithApp(app, () => user.createToken('cli'))
  const [id, secret] = plainTextToken.split('|') as [string, string]
  const expired = await runWithApp(app, () => user.createToken('old', ['*'], { expiresAt: new Date(Date.now() - 1000) }))
  const revoked = await runWithApp(app, () => user.createToken('gone'))
  await runWithApp(app, () => user.tokens().where('id', '=', revoked.accessToken.id).delete())
  const flipped = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a')
  const table: Array<[string, string]> = [
    ['empty', ''],
    ['bar only', '|'],
    ['no id', '|x'],
    ['letters in id', '1ABC|x'],
    ['comma id', '1,2|x'],
    ['no secret', `${id}|`],
    ['unknown id', `999999|${secret}`],
    ['wrong secret, valid shape', `${id}|${'A'.repeat(40)}00000000`],
    ['bad checksum', `${id}|${flipped}`],
    ['other token id', `${expired.accessToken.id}|${secret}`],
    ['expired', expired.plainTextToken],
    ['revoked', revoked.plainTextToken],
    ['negative id', `-${id}|${secret}`],
    ['trailing junk', `${id}|${secret}x`],
  ]
  for (const [label, token] of table) {
    const res = await bearer(app, token)
    t.is(res.status, 401, label)
    t.deepEqual(await res.json(), { message: 'Unauthenticated.' }, label)
  }
  for (const header of ['Bearer', 'Bearer |x', 'Basic abc', `bearer${plainTextToken}`]) {
    const res = await new TestClient(app).json('GET', '/user', undefined, { authorization: header })
    t.is(res.status, 401, header)
  }
  t.is((await bearer(app, plainTextToken)).status, 200, 'the good token still works')
  void accessToken
})

test('tok.expiration limits tokens by age; the token event fires; last_used_at is recorded off the request path', async (t) => {
  const { app, user } = await setup(t, { tok: { expiration: 60 } })
  const { accessToken, plainTextToken } = await runWithApp(app, () => user.createToken('cli'))
  t.truthy(accessToken.expires_at, 'without expiresAt, the lifetime follows tok.expiration')
  const seen: number[] = []
  runWithApp(app, () => Event.listen(TokenAuthenticated, (e: TokenAuthenticated) => void seen.push(e.token.id)))
  t.is((await bearer(app, plainTextToken)).status, 200)
  t.deepEqual(seen, [accessToken.id])
  // Written after the response, in a batch: wait for it rather than guess how long it takes.
  let touched: PersonalAccessToken | undefined
  for (let i = 0; i < 100 && !(touched?.last_used_at instanceof Date); i++) {
    await new Promise((r) => setTimeout(r, 20))
    touched = await runWithApp(app, () => PersonalAccessToken.find(accessToken.id))
  }
  t.true(touched!.last_used_at instanceof Date)
  await runWithApp(app, () =>
    PersonalAccessToken.query()
      .where('id', '=', accessToken.id)
      .update({ created_at: new Date(Date.now() - 61 * 60_000), expires_at: null }),
  )
  t.is((await bearer(app, plainTextToken)).status, 401, 'older than tok.expiration')
})

test('abilities: all required for abilities:, any for ability:, * grants everything; tokenCan follows the token', async (t) => {
  const { app, user } = await setup(t)
  const reader = await runWithApp(app, () => user.createToken('reader', ['orders:read']))
  const both = await runWithApp(app, () => user.createToken('both', ['orders:read', 'orders:write']))
  const all = await runWithApp(app, () => user.createToken('all'))
  t.is((await bearer(app, reader.plainTextToken, '/abilities')).status, 403)
  t.deepEqual(await (await bearer(app, both.plainTextToken, '/abilities')).json(), { ok: true, can: true })
  t.is((await bearer(app, all.plainTextToken, '/abilities')).status, 200)
  t.is((await bearer(app, reader.plainTextToken, '/ability')).status, 200)
  const none = await runWithApp(app, () => user.createToken('none', ['profile']))
  const refused = await bearer(app, none.plainTextToken, '/ability')
  t.is(refused.status, 403)
  t.deepEqual(await refused.json(), { message: 'Invalid ability provided.' })
})

test('currentAccessToken().delete() and tokensDelete() revoke', async (t) => {
  const { app, user } = await setup(t)
  const one = await runWithApp(app, () => user.createToken('one'))
  const two = await runWithApp(app, () => user.createToken('two'))
  t.is((await new TestClient(app).json('POST', '/revoke-current', undefined, { authorization: `Bearer ${one.plainTextToken}` })).status, 200)
  t.is((await bearer(app, one.plainTextToken)).status, 401)
  t.is((await bearer(app, two.plainTextToken)).status, 200)
  await runWithApp(app, () => user.tokensDelete())
  t.is((await bearer(app, two.plainTextToken)).status, 401)
})

test('POST /tok/token: 201 with the token; invalid input 422 with errors; bad credentials 422 with errors.email', async (t) => {
  const { app } = await setup(t)
  const client = new TestClient(app)
  const ok = await client.json('POST', '/tok/token', { email: 'test@example.com', password: 'password', device_name: 'phone', abilities: ['orders:read'] })
  t.is(ok.status, 201)
  const body = await ok.json()
  t.regex(body.token, /^\d+\|[A-Za-z0-9]{48}$/)
  t.deepEqual(body.abilities, ['orders:read'])
  t.is(body.expires_at, null)
  t.is((await bearer(app, body.token)).status, 200)
  const invalid = await client.json('POST', '/tok/token', { email: 'nope', device_name: '' })
  t.is(invalid.status, 422)
  t.truthy((await invalid.json()).errors.email)
  const wrong = await client.json('POST', '/tok/token', { email: 'test@example.com', password: 'bad', device_name: 'x' })
  t.is(wrong.status, 422)
  t.deepEqual((await wrong.json()).errors, { email: ['These credentials do not match our records.'] })
})

test('tok:prune-expired deletes tokens expired more than --hours ago and says how many', async (t) => {
  const { app, user } = await setup(t)
  await runWithApp(app, async () => {
    await user.createToken('long-gone', ['*'], { expiresAt: new Date(Date.now() - 48 * 3_600_000) })
    await user.createToken('recent', ['*'], { expiresAt: new Date(Date.now() - 3_600_000) })
    await user.createToken('live')
  })
  const lines: string[] = []
  const ctx = {
    app,
    root: app.root,
    cwd: app.root,
    args: [],
    flags: { hours: 24 },
    info: (l: string) => void lines.push(l),
    warn: (l: string) => void lines.push(l),
    error: () => {},
    table: () => {},
  }
  await runWithApp(app, () => app.commands.get('tok:prune-expired')!.run(ctx))
  t.true(lines.includes('Deleted 1 expired token.'))
  t.true(lines.some((l) => /tok\.expiration is not set/.test(l)))
  t.deepEqual(
    (await runWithApp(app, () => user.tokens().orderBy('id').get())).map((tk) => tk.name),
    ['recent', 'live'],
  )
})

test('testing helpers: actingAs(user, abilities) authenticates on tok with exactly those abilities; withToken sends a real token', async (t) => {
  const { app, user } = await setup(t)
  const reader = new TestClient(app).actingAs(user, ['orders:read'])
  t.is((await reader.json('GET', '/ability')).status, 200)
  t.is((await reader.json('GET', '/abilities')).status, 403)
  app.service('auth').forgetActingAs()
  const { plainTextToken } = await runWithApp(app, () => user.createToken('t', ['orders:read', 'orders:write']))
  const res = await new TestClient(app).withToken(plainTextToken).json('GET', '/abilities')
  t.deepEqual(await res.json(), { ok: true, can: true })
})

test('a first-party SPA session request without a PAT can do everything (tokenCan is true)', async (t) => {
  const { app } = await setup(t)
  app.router.group({ middleware: ['api'] }, () =>
    app.router.get('/can', ({ request }) => ({ can: request.user<User>()!.tokenCan('anything') })).middleware(['auth:tok']),
  )
  const spa = new TestClient(app).withHeaders({ referer: 'http://localhost:3000/' })
  await spa.get('/tok/csrf-cookie')
  await spa.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  t.deepEqual(await (await spa.json('GET', '/can')).json(), { can: true })
})

test.serial('usePersonalAccessTokenModel swaps the token model for a subclass', async (t) => {
  const { usePersonalAccessTokenModel } = await import('../../../plugins/tok/index.ts')
  const created: string[] = []
  class AuditedToken extends PersonalAccessToken {}
  AuditedToken.on('created', (token) => void created.push((token as PersonalAccessToken).name))
  usePersonalAccessTokenModel(AuditedToken)
  t.teardown(() => usePersonalAccessTokenModel(PersonalAccessToken))
  const { app, user } = await setup(t)
  const { accessToken, plainTextToken } = await runWithApp(app, () => user.createToken('audited'))
  t.true(accessToken instanceof AuditedToken)
  t.deepEqual(created, ['audited'])
  t.is((await bearer(app, plainTextToken)).status, 200)
})
