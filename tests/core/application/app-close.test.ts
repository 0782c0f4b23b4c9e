import test from 'ava'
import { createApp, KilnError } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const app = () => createApp({ root: tempApp({}), env: { APP_ENV: 'test' } })

test('app.close() runs every terminating hook; a single failure is thrown as it is, its code intact, several as an AggregateError', async (t) => {
  const closing = await app()
  const ran: string[] = []
  closing.terminating(() => void ran.push('first'))
  closing.terminating(() => {
    throw new KilnError('The queue would not stop.', { code: 'E_DEMO_QUEUE' })
  })
  const error = await t.throwsAsync(() => closing.close(), { instanceOf: KilnError, message: 'The queue would not stop.' })
  t.is((error as KilnError).code, 'E_DEMO_QUEUE')
  t.deepEqual(ran, ['first'], 'the hook after the failing one (registered before it) still ran')
  await t.notThrowsAsync(() => closing.close(), 'closing again does nothing')
  // Several failures go together.
  const failing = await app()
  failing.terminating(() => {
    throw new Error('one')
  })
  failing.terminating(() => {
    throw new Error('two')
  })
  const several = await t.throwsAsync(() => failing.close(), { instanceOf: AggregateError })
  t.deepEqual(
    (several as AggregateError).errors.map((each: Error) => each.message),
    ['two', 'one'],
  )
})
