import { AssertionError } from 'node:assert'
import test from 'ava'
import { Hash, Job, Queue, Storage, runWithApp, verifyPassword } from '../../../core/index.ts'
import { createTestApp } from '../../../core/testing/index.ts'

// Issue 27 item 7: fakes for the queue, storage and hashing.

class SendWelcome extends Job {
  static ran = 0
  constructor(readonly userId: number) {
    super()
  }
  async handle(): Promise<void> {
    SendWelcome.ran++
  }
}
class ResizeImage extends Job {
  async handle(): Promise<void> {}
}

test('Queue.fake keeps pushed jobs instead of running them; assertPushed, assertPushedOn, assertNotPushed, assertNothingPushed', async (t) => {
  const app = await createTestApp({ config: { queue: { default: 'sync', connections: { sync: { driver: 'sync' } } } } })
  t.teardown(() => app.close())
  await runWithApp(app, async () => {
    const fake = Queue.fake()
    fake.assertNothingPushed()
    await SendWelcome.dispatch(7)
    await SendWelcome.dispatch(8).onQueue('mail')
    t.is(SendWelcome.ran, 0, 'a faked job does not run')
    fake.assertPushed(SendWelcome)
    fake.assertPushed(SendWelcome, 2)
    fake.assertPushed(SendWelcome, (job) => job.userId === 8)
    fake.assertPushedOn('mail', SendWelcome)
    fake.assertNotPushed(ResizeImage)
    t.throws(() => fake.assertPushed(ResizeImage), {
      instanceOf: AssertionError,
      message: /Expected ResizeImage to be pushed\. Pushed: SendWelcome \(queue "default"\), SendWelcome \(queue "mail"\)/,
    })
    t.throws(() => fake.assertPushed(SendWelcome, 3), { instanceOf: AssertionError, message: /3 times, got 2/ })
    t.throws(() => fake.assertNotPushed(SendWelcome), { instanceOf: AssertionError })
    t.throws(() => fake.assertNothingPushed(), { instanceOf: AssertionError })
    Queue.restore()
    await SendWelcome.dispatch(9)
    t.is(SendWelcome.ran, 1, 'after restore() jobs run again')
  })
})

test('Storage.fake swaps a store for an empty one in memory: nothing reaches the disk', async (t) => {
  const app = await createTestApp()
  t.teardown(() => app.close())
  await runWithApp(app, async () => {
    const disk = await Storage.fake('local')
    await Storage.store('local').setItem('avatars/1.txt', 'hello')
    t.is(await disk.getItem('avatars/1.txt'), 'hello')
    t.is(app.config.get('storage.stores.local.driver'), 'memory')
    const again = await Storage.fake('local')
    t.false(await again.hasItem('avatars/1.txt'), 'each fake starts empty')
  })
})

test('Hash.fake makes hashing cheap with the same format and checks; restore goes back to the real cost', async (t) => {
  Hash.fake()
  try {
    const stored = await Hash.make('secret')
    t.regex(stored, /^scrypt\$16\$1\$1\$/)
    t.true(await Hash.check('secret', stored))
    t.false(await Hash.check('wrong', stored))
    t.true(await verifyPassword('secret', stored))
  } finally {
    Hash.restore()
  }
  t.regex(await Hash.make('secret'), /^scrypt\$16384\$8\$1\$/)
})
