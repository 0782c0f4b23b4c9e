import test from 'ava'
import { runWithApp, type Application } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { Mail } from '../../plugins/mail/index.ts'
import { starterApp } from '../fixtures/starter-app.ts'

/** Names with a control character: a line feed, a carriage return, NUL, and the Unicode line separator; tab and DEL too. */
const BAD_NAMES = [
  'Ada\nLovelace',
  'Ada\rLovelace',
  'Ada\u0000Lovelace',
  'Ada\u2028Lovelace',
  'Ada\u2029Lovelace',
  'Ada\tLovelace',
  'Ada\u007fLovelace',
  'Ada\u0085Lovelace',
]
const REFUSED = 'The name may not contain line breaks or other control characters.'

const names = (app: Application) =>
  runWithApp(app, async () => (await (await app.service('db').kysely()).selectFrom('users').select('name').orderBy('id').execute()).map((row) => row.name))

test('/register refuses a name with a control character, with a field error, and creates no account', async (t) => {
  const app = await starterApp(t, 'sqlite')
  runWithApp(app, () => Mail.fake())
  const before = await names(app)
  const client = new TestClient(app)
  const form = ComponentTest.visit(client, '/register', 'register')
  // The field is checked as it is left (wire:model.blur), before anything is submitted.
  for (const name of BAD_NAMES) await form.set('name', name).assertHasErrors({ name: REFUSED })
  await form
    .set({ name: 'Ada\nLovelace', email: 'ada@example.com', password: 'analytical engine', password_confirmation: 'analytical engine' })
    .call('register')
    .assertHasErrors({ name: REFUSED })
    .assertNoRedirect()
  t.deepEqual(await names(app), before)
  // Spaces inside and around a name are fine, as before (the passwords were cleared by the refused attempt).
  await form
    .set({ name: '  Ada  Lovelace ', password: 'analytical engine', password_confirmation: 'analytical engine' })
    .call('register')
    .assertHasNoErrors()
    .assertRedirect('/verify-email')
  t.is((await names(app)).at(-1), 'Ada  Lovelace')
})

test('/profile refuses a name with a control character, with a field error, and keeps the old name', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  for (const name of BAD_NAMES) await profile.set('name', name).call('updateDetails').assertHasErrors({ name: REFUSED })
  t.is((await names(app))[0], 'Test User')
  await profile.set('name', 'Ada Lovelace').call('updateDetails').assertHasNoErrors().assertSet('saved', 'details')
  t.is((await names(app))[0], 'Ada Lovelace')
})
