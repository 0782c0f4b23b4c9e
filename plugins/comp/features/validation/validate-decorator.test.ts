import test from 'ava'
import { testComponent } from '../../testing.ts'
import { compApp, page } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call } from '../../../../tests/plugins/comp/feature-app.ts'
import { validationFiles } from './validation.fixtures.ts'

test('@validate: an update of the property checks it, the value is set anyway and the calls of the request still run', async (t) => {
  const { client } = await compApp(t, validationFiles)
  const { snapshot, endpoint } = await page(client, '/page/signup')
  const answer = await call(client, endpoint, snapshot, { updates: [['name', 'ab']], calls: [{ method: 'touch' }] })
  t.is(answer.serverMemo.data.name, 'ab', 'the value is set even though it fails its rule')
  t.is(answer.serverMemo.data.calls, 1, 'a failed check on update does not stop the calls')
  t.deepEqual(answer.effects.errors, { name: ['The name field must be at least 3 characters.'] })
  t.regex(answer.effects.html, /<p id="name-error">The name field must be at least 3 characters\.<\/p>/)
  const signup = await testComponent(client, 'signup').set('name', 'ab')
  await signup.set('email', 'nope')
  t.deepEqual(
    signup.errors,
    { name: ['The name field must be at least 3 characters.'], email: ['The email address field must be a valid email address.'] },
    'the other field keeps its message',
  )
  await signup.set('name', 'Ada')
  t.deepEqual(Object.keys(signup.errors), ['email'], 'a valid value clears its own message only')
})

test('@validate: messages per issue code and for every issue, :attribute from `as`; onUpdate: false waits for validate()', async (t) => {
  const { client } = await compApp(t, validationFiles)
  const signup = await testComponent(client, 'signup')
  await signup.set('password', 'short')
  t.deepEqual(signup.errors, { password: ['The secret needs 8 characters or more.'] })
  await signup.set('nickname', 'much too long')
  t.false('nickname' in signup.errors, 'onUpdate: false does not check on update')
  await signup.call('save')
  t.deepEqual(signup.errors.nickname, ['Keep nickname short.'])
  t.is(signup.get('saved'), '', 'save() stopped at validate()')
})

test('@validate: validate() checks the decorated fields and static rules together; success returns the parsed values and clears the messages', async (t) => {
  const { client } = await compApp(t, validationFiles)
  const signup = await testComponent(client, 'signup')
  await signup.call('save')
  t.deepEqual(Object.keys(signup.errors).sort(), ['email', 'name', 'password', 'terms'])
  t.deepEqual(signup.errors.terms, ['Accept the terms.'], 'static rules still apply beside @validate()')
  await signup.set({ name: 'Ada', email: 'ada@example.com', password: 'correct horse', terms: true })
  await signup.call('save')
  t.deepEqual(signup.errors, {})
  t.is(signup.get('saved'), 'Ada <ada@example.com>')
})

test('@validate: a path inside a list property checks the property, messages keyed by the path; validateOnly() checks one field', async (t) => {
  const { client } = await compApp(t, validationFiles)
  const signup = await testComponent(client, 'signup')
  await signup.set('tags', ['ok', 'x'])
  t.deepEqual(signup.errors, { 'tags.1': ['The tags field must be at least 2 characters.'] })
  await signup.set('tags.1', 'fine')
  t.deepEqual(signup.errors, {})
  await signup.call('checkName')
  t.deepEqual(Object.keys(signup.errors), ['name'])
})
