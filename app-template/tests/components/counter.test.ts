import { fileURLToPath } from 'node:url'
import test from 'ava'
import { testComponent } from 'kiln-framework/comp'
import { createTestApp } from 'kiln-framework/testing'
import Counter from '../../app/components/counter.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

test('the counter counts up and down', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())

  // Each call is a real update: signed, CSRF-checked, through the app's own middleware. A failed assertion
  // rejects the chain, and awaited here it fails the test at that assertion's line.
  const counter = await testComponent(app, Counter)
    .assertSet('count', 0)
    .call('increment')
    .call('increment')
    .call('decrement')
    .assertSet('count', 1)
    .assertSeeHtml('data-test="count">1<')
    .call('mount')
    .assertStatus(403) // lifecycle hooks are not actions: the browser cannot call them
  // ava wants an assertion of its own in every test.
  t.is(counter.get('count'), 1)
})
