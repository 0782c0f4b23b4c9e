import { AssertionError } from 'node:assert'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { testComponent } from '../../../plugins/comp/index.ts'
import { compApp, counterFiles } from './comp-fixtures.ts'

// What the docs promise: a failed assertion's stack is at the line of the assertion (docs/components/testing.md).
const THIS_FILE = fileURLToPath(import.meta.url)

/** The line of this file that the stack names first. */
function firstLineHere(error: Error | undefined): number | undefined {
  const frame = (error?.stack ?? '').split('\n').find((line) => line.includes(THIS_FILE))
  return frame ? Number(/:(\d+):\d+\)?$/.exec(frame)?.[1]) : undefined
}

/** The line of this file that holds the marker. */
function lineOf(marker: string): number {
  return (
    readFileSync(THIS_FILE, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(`// ${marker}`)) + 1
  )
}

test('a failing assertion in an awaited chain points at its own line: a kernel assertion and a feature’s', async (t) => {
  const { client } = await compApp(t, counterFiles)
  const kernel = await t.throwsAsync(
    testComponent(client, 'counter')
      .call('increment')
      .assertSet('count', 1)
      .call('increment')
      .assertSet('count', 7) // kernel-assertion
      .call('increment'),
    { instanceOf: AssertionError, message: /Expected count to be 7, but it is 2/ },
  )
  t.is(firstLineHere(kernel), lineOf('kernel-assertion'))
  const feature = await t.throwsAsync(
    testComponent(client, 'counter')
      .call('increment')
      .assertNotDispatched('counted')
      .assertDispatched('counted') // feature-assertion
      .call('increment'),
    { instanceOf: AssertionError, message: /Expected "counted" to be dispatched/ },
  )
  t.is(firstLineHere(feature), lineOf('feature-assertion'))
  const counter = await testComponent(client, 'counter')
  const sync = t.throws(() => counter.assertSet('count', 3)) // on-the-component
  t.is(firstLineHere(sync), lineOf('on-the-component'))
})
