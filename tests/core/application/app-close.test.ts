import test from 'ava'
import { createApp, KilnError } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const app = () => createApp({ root: tempApp({}), env: { APP_ENV: 'test' } })

test('app.close() runs every terminating hook, and a single failure is thrown as it is, its code intact', async (t) => {
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
})

test('app.close() throws several failures together as an AggregateError', async (t) => {
  const closing = await app()
  closing.terminating(() => {
    throw new Error('one')
  })
  closing.terminating(() => {
    throw new Error('two')
  })
  const error = await t.throwsAsync(() => closing.close(), { instanceOf: AggregateError })
  t.deepEqual(
    (error as AggregateError).errors.map((each: Error) => each.message),
    ['two', 'one'],
  )
})
