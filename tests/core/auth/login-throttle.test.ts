import test from 'ava'
import { TestClient } from '../../../core/testing/index.ts'
import { starterApp } from '../../fixtures/starter-app.ts'

test('POST /login: 5 attempts a minute per email and address, then 429 JSON with Retry-After; another email is not affected', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  const attempt = (email: string) => client.json('POST', '/login', { email, password: 'wrong-password' })
  for (let i = 0; i < 5; i++) t.is((await attempt('test@example.com')).status, 422, `attempt ${i + 1}`)
  const limited = await attempt(' TEST@example.com')
  t.is(limited.status, 429, 'the same email, however it is spelled')
  t.deepEqual(await limited.json(), { message: 'Too many requests.' })
  t.true(Number(limited.header('retry-after')) >= 1)
  // The right password does not get past the limit either: the limit is what stops guessing.
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 429)
  t.is((await attempt('other@example.com')).status, 422)
})
