import { AssertionError } from 'node:assert'
import test from 'ava'
import { testComponent } from '../../../../plugins/comp/index.ts'
import { compApp } from '../../../../tests/plugins/comp/comp-fixtures.ts'

// Rules of every origin: @validate() on properties, static rules, a form object's, a custom message.
const files = {
  'app/components/signup.ts': `import { Component, Form, validate } from 'kiln-framework/comp'
import { z } from 'zod'
class AddressForm extends Form {
  @validate(z.string().min(1)) city = ''
  @validate(z.string().regex(/^\\d{4}$/)) zip = ''
}
export default class Signup extends Component {
  @validate(z.string().min(3)) name = ''
  @validate(z.string().email()) email = ''
  @validate(z.number().int().max(120, 'Nobody is that old.')) age = 0
  @validate(z.array(z.string()).max(2)) tags: string[] = []
  @validate(z.enum(['free', 'pro'])) plan = 'free'
  @validate(z.number()) seats: number | null = null
  address = new AddressForm()
  save() { this.validate() }
  saveAddress() { this.address.validate() }
  checkName() { this.validateOnly('name') }
}
`,
  'resources/views/components/signup.hbs': '<div>{{error "name"}}</div>',
}

const failsWith = (message: RegExp) => ({ instanceOf: AssertionError, message })

test('assertHasErrors by rule, as Livewire: required, min, max, email, regex, in, with parameters too, or by message', async (t) => {
  const { app } = await compApp(t, files)
  const signup = await testComponent(app, 'signup')
    .set({ name: 'Al', email: 'not-an-email', age: 130, tags: ['a', 'b', 'c'], plan: 'gold' })
    .call('save')
    .assertHasErrors({ name: 'min', email: 'email', age: 'max', tags: 'max', plan: 'in' })
    .assertHasErrors({ name: ['min', 'min:3', 'too_small', 'at least 3'], age: ['max:120', 'Nobody is that old.'], tags: 'max:2' })
    .assertHasErrors({ 'address.city': 'required', 'address.zip': 'regex' })
    .assertHasErrors(['name', 'email'])
    .assertHasErrors({ email: /valid email/ })
  t.throws(
    () => signup.assertHasErrors({ name: 'required' }),
    failsWith(
      /^signup: Expected an error for name from the rule 'required' or containing it, but its messages are \[ '[^']+' \], and the rules that failed are \[ 'min', 'min:3', 'too_small' \]\./,
    ),
  )
  t.throws(() => signup.assertHasErrors({ age: 'min' }), failsWith(/the rules that failed are \[ 'max', 'max:120', 'too_big' \]/))
  t.throws(() => signup.assertHasErrors({ name: 'min:4' }), failsWith(/Expected an error for name from the rule 'min:4'/))
  t.throws(() => signup.assertHasErrors({ 'address.city': 'email' }), failsWith(/the rules that failed are \[ 'required', 'min', 'min:1', 'too_small' \]/))
})

test("validateOnly and a form object's own validate() report their failed rules too", async (t) => {
  const { app } = await compApp(t, files)
  await testComponent(app, 'signup').set('name', 'ab').call('checkName').assertHasErrors({ name: 'min:3' }).assertHasNoErrors('email')
  const signup = await testComponent(app, 'signup')
    .set('address.zip', 'abc')
    .call('saveAddress')
    .assertHasErrors({ 'address.zip': 'regex', 'address.city': 'required' })
  t.throws(() => signup.assertHasErrors({ 'address.zip': 'min' }), failsWith(/the rules that failed are \[ 'regex', 'invalid_format' \]/))
})

test('an error added by hand has no rule: only its message matches', async (t) => {
  const { app } = await compApp(t, {
    ...files,
    'app/components/manual.ts': `import { Component } from 'kiln-framework/comp'
export default class Manual extends Component { taken() { this.addError('name', 'This name is taken.') } }
`,
    'resources/views/components/manual.hbs': '<div></div>',
  })
  const manual = await testComponent(app, 'manual').call('taken').assertHasErrors({ name: 'taken' })
  t.throws(
    () => manual.assertHasErrors({ name: 'unique' }),
    failsWith(/Expected an error for name from the rule 'unique' or containing it, but its messages are \[ 'This name is taken\.' \]\.$/),
  )
})

test('a missing value fails `required`; a value of the wrong type names the type (`integer`, `numeric`)', async (t) => {
  const { app } = await compApp(t, files)
  const signup = await testComponent(app, 'signup').set('age', 1.5).call('save').assertHasErrors({ age: 'integer', seats: 'required' })
  t.throws(() => signup.assertHasErrors({ seats: 'numeric' }), failsWith(/the rules that failed are \[ 'required', 'invalid_type' \]/))
  t.throws(() => signup.assertHasErrors({ age: 'max' }), failsWith(/the rules that failed are \[ 'integer', 'invalid_type' \]/))
})
