import test, { type ExecutionContext } from 'ava'
import { createApp, Migrator, Model, runWithApp, type Application } from '../../../core/index.ts'
import nullDriver from '../../../drivers/broadcast/null/index.ts'
import {
  broadcasting,
  Broadcast,
  BroadcastsEvents,
  BroadcastsEventsAfterCommit,
  Channel,
  flushBroadcasts,
  Notifiable,
  Notification,
  PrivateChannel,
  type BroadcastableModelEvent,
} from '../../../plugins/broadcasting/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class Article extends BroadcastsEvents(Model) {
  static table = 'articles'
  static softDeletes = true
  static fillable = ['title']
  declare id: number
  declare title: string
  broadcastOn(event: BroadcastableModelEvent) {
    return event === 'restored' ? [] : [this, new Channel('articles')]
  }
}
class LiveArticle extends BroadcastsEvents(Model) {
  static table = 'articles'
  static fillable = ['title']
  static broadcastsNow = true
  broadcastOn() {
    return ['live']
  }
  broadcastAs(event: BroadcastableModelEvent) {
    return `article.${event}`
  }
  broadcastWith() {
    return { id: this.getKey() }
  }
}
class CommittedArticle extends BroadcastsEventsAfterCommit(Model) {
  static table = 'articles'
  static fillable = ['title']
  broadcastOn() {
    return ['committed']
  }
}
class Member extends Notifiable(Model) {
  static table = 'members'
}
class InvoicePaid extends Notification {
  constructor(public amount: number) {
    super()
  }
  via() {
    return ['broadcast']
  }
  toBroadcast() {
    return { amount: this.amount }
  }
}

const migration = `import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('articles').addColumn('id', ...increments(db)).addColumn('title', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').addColumn('deleted_at', 'timestamp').execute()
  await db.schema.createTable('members').addColumn('id', ...increments(db)).addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
}`

async function makeApp(t: ExecutionContext): Promise<Application> {
  const app = await createApp({
    root: tempApp({ 'database/migrations/0001.ts': migration }),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), nullDriver],
    config: { database: { default: 'main', connections: { main: { driver: 'sqlite', filename: ':memory:' } } } },
  })
  t.teardown(() => app.close())
  await new Migrator(app).migrate()
  return app
}

test('model broadcasting: created, updated, trashed and deleted go out as ArticleCreated... with { model }; [] keeps a change quiet', async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    const article = await Article.create({ title: 'Hi' })
    article.title = 'Hello'
    await article.save()
    await article.delete()
    await article.restore()
    await flushBroadcasts()
    t.deepEqual(
      fake.sent.map((m) => m.event),
      ['ArticleCreated', 'ArticleUpdated', 'ArticleTrashed'],
    )
    fake.assertBroadcastOn('ArticleUpdated', `private-app.models.Article.${article.id}`)
    fake.assertBroadcastOn('ArticleUpdated', 'articles')
    t.is((fake.broadcasts('ArticleUpdated')[0]!.payload.model as { title: string }).title, 'Hello')
    await article.forceDelete()
    await flushBroadcasts()
    t.notThrows(() => fake.assertBroadcast('ArticleDeleted'))
  })
})

test('broadcastsNow skips the queue and custom names and payloads apply; after-commit models wait for the commit', async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    const live = await LiveArticle.create({ title: 'x' })
    t.deepEqual(
      fake.sent.map((m) => [m.event, m.payload]),
      [['article.created', { id: live.getKey() }]],
      'sent during save, no flush needed',
    )
    await app.service('db').transaction(async () => {
      await CommittedArticle.create({ title: 'y' })
      await flushBroadcasts()
      t.is(fake.broadcasts('CommittedArticleCreated').length, 0)
    })
    await app
      .service('db')
      .transaction(async () => {
        await CommittedArticle.create({ title: 'z' })
        throw new Error('rollback')
      })
      .catch(() => {})
    await new Promise((r) => setTimeout(r, 10))
    await flushBroadcasts()
    t.is(fake.broadcasts('CommittedArticleCreated').length, 1)
  })
})

test("broadcast notifications go to the notifiable's private channel as BroadcastNotificationCreated with id and type", async (t) => {
  const app = await makeApp(t)
  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    const member = await Member.create({})
    const notification = new InvoicePaid(42)
    await member.notify(notification)
    await flushBroadcasts()
    fake.assertBroadcastOn('BroadcastNotificationCreated', new PrivateChannel(member).name)
    t.deepEqual(fake.sent[0]!.payload, { amount: 42, id: notification.id, type: 'InvoicePaid' })
  })
})
