import test from 'ava'
import { testComponent } from '../../testing.ts'
import { compApp, page, update } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { call } from '../../../../tests/plugins/comp/feature-app.ts'
import { formsFiles } from './forms.fixtures.ts'

test('form objects: wire:model paths set fields, a field with a rule is checked on update (keyed form.title), validate() saves and reset() clears', async (t) => {
  const { client } = await compApp(t, formsFiles)
  const post = await testComponent(client, 'create-post')
  t.deepEqual(post.get('form'), { title: '', body: '', publishAt: null, tags: [] }, 'the form travels as its declared fields only')
  await post.set('form.title', 'ab')
  t.is(post.status, 200)
  t.is(post.get('form.title'), 'ab')
  t.deepEqual(post.errors, { 'form.title': ['The title needs 3 characters.'] })
  t.regex(post.html, /<p id="title-error">The title needs 3 characters\.<\/p>/)
  await post.set('form.body', 'x'.repeat(21))
  t.deepEqual(post.errors['form.body'], ['The body text field must not have more than 20 characters.'])
  await post.set({ 'form.title': 'Hello world', 'form.body': 'short' })
  t.deepEqual(post.errors, {})
  await post.call('save')
  t.deepEqual(post.get('posts'), ['Hello world:short:hello-world'], 'the form kept its class (its method ran) and validate() returned its values')
  t.deepEqual(post.get('form'), { title: '', body: '', publishAt: null, tags: [] }, 'reset() put every field back')
  t.regex(post.html, /<li>Hello world:short:hello-world<\/li>/)
})

test('form objects: validate() fails with messages keyed form.*; validate(field), reset(field), fill() and the component validate() include the form', async (t) => {
  const { client } = await compApp(t, formsFiles)
  const post = await testComponent(client, 'create-post')
  await post.call('save')
  t.deepEqual(post.errors, { 'form.title': ['The title needs 3 characters.'] })
  t.deepEqual(post.get('posts'), [], 'save() stopped at validate()')
  await post.set('form.body', 'x'.repeat(30))
  await post.call('checkTitle')
  t.deepEqual(Object.keys(post.errors).sort(), ['form.body', 'form.title'], "validate(field) keeps the other fields' messages")
  await post.call('fillIt')
  t.is(post.get('form.title'), 'Filled title')
  await post.call('resetTitle')
  t.is(post.get('form.title'), '')
  t.is(post.get('form.body'), 'filled', 'reset(field) leaves the other fields')
  await post.call('whole')
  t.deepEqual(post.errors, { 'form.title': ['The title needs 3 characters.'] }, 'the component validate() checks its forms')
})

test('form objects: typed fields keep their type; unknown fields, private fields, methods and prototype keys are refused; a whole form updates field by field', async (t) => {
  const { client } = await compApp(t, formsFiles)
  const { snapshot, endpoint } = await page(client, '/page/create-post')
  const dated = await call(client, endpoint, snapshot, { updates: [['form.publishAt', '2030-01-02T03:04:05.000Z']] })
  t.is(dated.serverMemo.data.form.publishAt, '2030-01-02T03:04:05.000Z')
  t.true(dated.serverMemo.types.some(([path, type]: [string[], { t: string }]) => path.join('.') === 'form.publishAt' && type.t === 'date'))
  for (const [path, value, status] of [
    ['form.publishAt', { not: 'a date' }, 422],
    ['form.nope', 'x', 422],
    ['form._draftKey', 'x', 422],
    ['form.slug', 'x', 422],
    ['form.__proto__', 'x', 400],
    ['form.constructor', 'x', 400],
    ['form.title.length', 1, 422],
    ['form', { title: 'ok', __proto__x: 1 }, 422],
    ['form', 'text', 422],
  ] as const) {
    const res = await update(client, endpoint, snapshot, { updates: [[path, value]] })
    t.is(res.status, status, `${path} = ${JSON.stringify(value)}`)
    t.truthy(((await res.json()) as { message?: string }).message)
  }
  const proto = await update(client, endpoint, snapshot, { updates: [['form', JSON.parse('{"__proto__": {"polluted": true}}')]] })
  t.is(proto.status, 400)
  t.is(({} as Record<string, unknown>).polluted, undefined)
  const whole = await call(client, endpoint, snapshot, { updates: [['form', { title: 'ab', body: 'fine' }]] })
  t.deepEqual(whole.serverMemo.data.form, { title: 'ab', body: 'fine', publishAt: null, tags: [] })
  t.deepEqual(whole.effects.errors, { 'form.title': ['The title needs 3 characters.'] }, 'each field of a whole-form update is checked')
})
