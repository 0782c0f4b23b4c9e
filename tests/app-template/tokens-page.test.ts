import test from 'ava'
import { createTestApp, TestClient } from '../../core/testing/index.ts'
import { runWithApp } from '../../core/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { PersonalAccessToken, tokConfigSchema } from '../../plugins/tok/index.ts'
import { User } from '../../app-template/app/models/user.ts'
import { preferredLocale, localDate } from '../../app-template/app/support/local-dates.ts'
import { starterApp } from '../fixtures/starter-app.ts'
import { fileURLToPath } from 'node:url'

async function loggedIn(t: Parameters<typeof starterApp>[0], headers: Record<string, string> = {}) {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app).withHeaders(headers)
  await client.get('/')
  if ((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status !== 200) throw new Error('login')
  return { app, client }
}

test('the abilities offered come from tok.abilities in config/tok.ts, each with its label; only those are accepted', async (t) => {
  const { app, client } = await loggedIn(t)
  const page = await ComponentTest.visit(client, '/tokens', 'token-manager')
    .assertSee(['Read your orders', 'Place and change orders'])
    .assertSeeHtml('data-test="ability-orders:write"')
  app.config.set('tok', { ...app.config.get<object>('tok'), abilities: { 'reports:read': 'See the monthly reports' } })
  await page
    .refresh()
    .assertSee('See the monthly reports')
    .assertDontSee('Read your orders')
    .set({ name: 'old', abilities: ['orders:read'] })
    .call('create')
    .assertHasErrors({ abilities: 'Pick abilities from the list.' })
    .set({ name: 'reports', abilities: ['reports:read'] })
    .call('create')
    .assertHasNoErrors()
  const token = await runWithApp(app, () => PersonalAccessToken.query().where('name', '=', 'reports').first())
  t.deepEqual(token!.abilities, ['reports:read'])
})

test('tok.abilities is checked by the tok plugin: bad names, reserved keys and empty labels are refused at boot with the key named', async (t) => {
  t.true(tokConfigSchema.safeParse({ abilities: { 'orders:read': 'Read', '*': 'All' } }).success)
  for (const abilities of [{ 'orders read': 'x' }, { 'orders:read': '' }, { constructor: 'x' }, { prototype: 'x' }, ['orders:read']]) {
    t.false(tokConfigSchema.safeParse({ abilities }).success, JSON.stringify(abilities))
  }
  // A `__proto__` key from JSON never becomes an ability (nor the prototype).
  const parsed = tokConfigSchema.parse({ abilities: JSON.parse('{"__proto__": "x", "a": "A"}') }).abilities
  t.deepEqual(Object.keys(parsed), ['a'])
  t.is(Object.getPrototypeOf(parsed), Object.prototype)
  const root = fileURLToPath(new URL('../../app-template/', import.meta.url))
  const error = await t.throwsAsync(createTestApp({ root, config: { tok: { abilities: { 'bad name': 'Label' } } } }))
  t.regex(error!.message, /tok/)
  t.regex(error!.message, /abilities/)
})

test("token dates read in the visitor's locale (Accept-Language), in UTC and saying so; never is never", async (t) => {
  const { app, client } = await loggedIn(t, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' })
  await runWithApp(app, async () => {
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    const { accessToken } = await user.createToken('laptop', ['orders:read'])
    accessToken.last_used_at = new Date('2026-03-04T17:05:00Z') as never
    accessToken.expires_at = new Date('2027-01-31T08:00:00Z') as never
    await accessToken.save()
    await user.createToken('phone', ['orders:read'])
  })
  const html = await (await client.get('/tokens', { accept: 'text/html' })).text()
  t.regex(html, /data-test="last-used"><!--\[if BLOCK\]><!\[endif\]-->04\.03\.2026, 17:05 UTC<!--\[if ENDBLOCK\]><!\[endif\]--></)
  t.regex(html, /data-test="expires"><!--\[if BLOCK\]><!\[endif\]-->31\.01\.2027, 08:00 UTC<!--\[if ENDBLOCK\]><!\[endif\]--></)
  t.regex(html, /data-test="last-used"><!--\[if BLOCK\]><!\[endif\]-->never<!--\[if ENDBLOCK\]><!\[endif\]--></)
  const english = await (await client.withHeaders({ 'accept-language': 'en-US' }).get('/tokens', { accept: 'text/html' })).text()
  t.regex(english, /data-test="last-used"><!--\[if BLOCK\]><!\[endif\]-->Mar 4, 2026, 5:05\sPM UTC<!--\[if ENDBLOCK\]><!\[endif\]--></)
})

test('preferredLocale takes the best-rated locale Intl can format, ignoring junk; localDate reads database strings as UTC', (t) => {
  t.is(preferredLocale('fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5'), 'fr-CH')
  t.is(preferredLocale('en;q=0.1, ja;q=0.8'), 'ja')
  t.is(preferredLocale(undefined), 'en')
  t.is(preferredLocale('"><script>, 12345, ;;;'), 'en')
  t.is(preferredLocale('x'.repeat(10_000)), 'en')
  t.is(localDate('2026-03-04 17:05:00', 'en-GB'), '4 Mar 2026, 17:05 UTC')
  t.is(localDate(null, 'en'), null)
  t.is(localDate('not a date', 'en'), null)
})
