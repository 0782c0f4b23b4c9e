/**
 * P1: the cost of personal access token auth. `GET /user` with a valid
 * Bearer token (parse, CRC check, one indexed lookup, constant-time hash
 * compare, the user by key) against the same JSON from an unauthenticated
 * route of the same app, both over a real listening server on SQLite.
 * Goal: a ratio of 0.85 or more.
 */
import { fileURLToPath } from 'node:url'
import { runWithApp } from '../core/index.ts'
import { createTestApp, refreshDatabase } from '../core/testing/index.ts'
import seed from '../app-template/database/seeders/index.ts'
import { User } from '../app-template/app/models/user.ts'
import { compare, report } from './measure.ts'

export async function tokenAuth(): Promise<void> {
  const root = fileURLToPath(new URL('../app-template/', import.meta.url))
  const app = await createTestApp({ root, config: { logging: { level: 'silent' } } })
  await refreshDatabase(app)
  const { token, json } = await runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    return { token: (await user.createToken('bench')).plainTextToken, json: user.toDict() }
  })
  app.router.group({ middleware: ['api'] }, () => app.router.get('/user-open', () => json))
  const server = await app.listen({ port: 0 })
  try {
    const { kiln, baseline, ratio } = await compare(`${server.url}/user`, `${server.url}/user-open`, { kilnHeaders: { authorization: `Bearer ${token}`, accept: 'application/json' }, baselineHeaders: { accept: 'application/json' } })
    report('P1 tok: GET /user with a Bearer token vs the same JSON unauthenticated', kiln, baseline, ratio, 0.85)
  } finally {
    await app.close()
  }
}
