import test from 'ava'
import { Event, runWithApp } from '../../../core/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

class OrderShipped extends Event {
  constructor(public orderId: number) {
    super()
  }
}
class OrderAudited extends Event {
  static afterCommit = true
  constructor(public orderId: number) {
    super()
  }
}

const seen: string[] = []
class SendEmail {
  handle(event: OrderShipped) {
    seen.push(`email:${event.orderId}`)
  }
}
class QueuedSms {
  static queued = true
  handle(event: OrderShipped) {
    seen.push(`sms:${event.orderId}`)
  }
}

test.serial('dispatch runs function and class listeners in order; queued listeners run on the queue; * sees everything', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  seen.length = 0
  await runWithApp(app, async () => {
    Event.listen(OrderShipped, (e: OrderShipped) => void seen.push(`fn:${e.orderId}`))
    Event.listen(OrderShipped, SendEmail)
    Event.listen(OrderShipped, QueuedSms)
    Event.listen('*', (e: Event) => void seen.push(`*:${e.constructor.name}`))
    await OrderShipped.dispatch(7)
    t.deepEqual(seen, ['fn:7', 'email:7', '*:OrderShipped'])
    await app.service('queue').flush()
    t.deepEqual(seen, ['fn:7', 'email:7', '*:OrderShipped', 'sms:7'])
  })
})

test.serial('Event.fake records and swallows; assertions pass and fail as they should', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  seen.length = 0
  await runWithApp(app, async () => {
    Event.listen(OrderShipped, SendEmail)
    const fake = Event.fake()
    await OrderShipped.dispatch(1)
    await OrderShipped.dispatch(2)
    t.deepEqual(seen, [], 'listeners did not run')
    fake.assertDispatched(OrderShipped)
    fake.assertDispatched(OrderShipped, (e) => e.orderId === 2)
    fake.assertDispatchedTimes(OrderShipped, 2)
    fake.assertNotDispatched(OrderAudited)
    t.throws(() => fake.assertDispatched(OrderAudited), { message: /Expected OrderAudited to be dispatched/ })
    t.throws(() => fake.assertNothingDispatched())
    t.throws(() => fake.assertDispatchedTimes(OrderShipped, 3), { message: /3 times, got 2/ })
    Event.restore()
    await OrderShipped.dispatch(3)
    t.deepEqual(seen, ['email:3'])
  })
})

test.serial('after-commit events wait for the commit and are dropped on rollback', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  const audited: number[] = []
  const db = app.service('db')
  await runWithApp(app, async () => {
    Event.listen(OrderAudited, (e: OrderAudited) => void audited.push(e.orderId))
    await db.transaction(async () => {
      await OrderAudited.dispatch(1)
      t.deepEqual(audited, [])
    })
    await db
      .transaction(async () => {
        await OrderAudited.dispatch(2)
        throw new Error('no')
      })
      .catch(() => {})
    await new Promise((r) => setTimeout(r, 10))
  })
  t.deepEqual(audited, [1])
})

test.serial('model events go through the dispatcher: listeners by name, and false from a -ing listener cancels', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  const created: string[] = []
  await runWithApp(app, async () => {
    Event.listen('model.created: Author', (author: Author) => void created.push(author.name))
    Event.listen('model.creating: Author', (author: Author) => (author.name === 'blocked' ? false : undefined))
    await Author.create({ name: 'Ada' })
    t.false(await new Author({ name: 'blocked' }).save())
    t.is(await Author.query().count(), 1)
  })
  t.deepEqual(created, ['Ada'])
})
