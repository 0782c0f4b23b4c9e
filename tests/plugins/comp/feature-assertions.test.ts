import { AssertionError } from 'node:assert'
import test from 'ava'
import { installFeatures } from '../../../plugins/comp/extension/installed-features.ts'
import type { FeatureProvider } from '../../../plugins/comp/extension/feature-provider.ts'
import { failAssertion, type ComponentAssertions } from '../../../plugins/comp/testing/assertions.ts'
import { testComponent, type ComponentTest } from '../../../plugins/comp/index.ts'
import { compApp, counterFiles } from './comp-fixtures.ts'

/** A feature of this test's own: one assertion, brought by its provider as the kernel's features bring theirs. */
const countingFeature: FeatureProvider = {
  name: 'counting',
  assertions: {
    assertCountIsEven(this: ComponentAssertions) {
      const count = this.get('count') as number
      if (count % 2 !== 0) failAssertion(this, `Expected an even count, but it is ${count}.`, { actual: count, operator: 'assertCountIsEven' })
    },
  },
}
type WithEven<T> = T & { assertCountIsEven(): WithEven<T> }

test.serial('a feature brings its assertions: on the component under test and in its awaited chain, failing as the kernel’s do', async (t) => {
  installFeatures([countingFeature])
  const { client } = await compApp(t, counterFiles)
  const counter = (await testComponent(client, 'counter').call('increment').call('increment')) as WithEven<ComponentTest>
  t.is(counter.assertCountIsEven(), counter, 'it returns the test, so that more can follow')
  await counter.call('increment')
  t.throws(() => counter.assertCountIsEven(), { instanceOf: AssertionError, message: /^counter: Expected an even count, but it is 3\./ })
  // In the chain it runs once the steps before it are done.
  const chain = testComponent(client, 'counter').call('increment') as WithEven<ReturnType<typeof testComponent>>
  await t.throwsAsync(() => chain.assertCountIsEven(), { instanceOf: AssertionError, message: /but it is 1\./ })
  await (testComponent(client, 'counter').call('increment').call('increment') as WithEven<ReturnType<typeof testComponent>>).assertCountIsEven()
})

test.serial('the kernel’s features bring theirs the same way, and a name defined twice is refused', (t) => {
  const error = t.throws(() => installFeatures([{ name: 'again', assertions: { assertRedirect() {} } }]))
  t.regex(error.message, /assertRedirect\(\) is defined twice/)
  t.is((error as Error & { code?: string }).code, 'E_COMP_FEATURE_METHOD')
})

/** A feature that reads each answer in a test: what it saw, for its assertion (as downloads fetch their file). */
const seen = new WeakMap<ComponentAssertions, string[]>()
const readingFeature: FeatureProvider = {
  name: 'reading',
  async readTestAnswer(test, effects, client) {
    // With the test's own client: its session cookie is there.
    const session = client.cookie('XSRF-TOKEN') === undefined ? 'no session' : 'session'
    seen.set(test, [...(seen.get(test) ?? []), `${JSON.stringify(effects.data)} ${session}`])
  },
  assertions: {
    assertReadAnswers(this: ComponentAssertions, expected: string[]) {
      const actual = seen.get(this) ?? []
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        failAssertion(this, `Expected to have read ${JSON.stringify(expected)}, but read ${JSON.stringify(actual)}.`, { actual, operator: 'assertReadAnswers' })
    },
  },
}
type WithRead<T> = T & { assertReadAnswers(expected: string[]): WithRead<T> }

test.serial('a feature reads each answered update of a test, with the test’s client, before the assertions after it run', async (t) => {
  installFeatures([readingFeature])
  const { client } = await compApp(t, counterFiles)
  const counter = (await (testComponent(client, 'counter').call('increment') as WithRead<ReturnType<typeof testComponent>>).assertReadAnswers([
    '{"count":1} session',
  ])) as WithRead<ComponentTest>
  // A refused update (403: mount is not callable) is not read.
  await counter.call('mount')
  await counter.call('increment')
  t.is(counter.assertReadAnswers(['{"count":1} session', '{"count":2} session']), counter)
})
