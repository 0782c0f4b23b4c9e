import test, { type ExecutionContext } from 'ava'
import { afterCommit, runWithApp, type Application } from '../../core/index.ts'
import { Author, databaseApp, Post } from '../fixtures/database.ts'

/**
 * The contract every database dialect passes, in the manner of unstorage's `testDriver`: models (casts, hidden and
 * fillable attributes, timestamps), the query builder, pagination from URL input, soft deletes and model events,
 * relations, and transactions with savepoints and `afterCommit`, on a migrated app of the dialect.
 *
 * @example
 * ```ts
 * testDatabase('pgsql')
 * ```
 */
export function testDatabase(dialect: 'sqlite' | 'pgsql'): void {
  const within = async <T>(t: ExecutionContext, fn: (app: Application) => Promise<T>) => {
    const app = await databaseApp(t, dialect)
    return runWithApp(app, () => fn(app))
  }

  test(`${dialect}: create, find, casts round-trip, hidden, fillable, timestamps`, (t) =>
    within(t, async () => {
      await t.throwsAsync(Author.create({ name: 'Ada', email: 'ada@example.com', secret: 's3', id: 999, nope: 1 }), {
        message: 'Author does not accept "id", "nope" in create() or fill(). Add them to Author.fillable, or set them on their own (model.id = ...).',
      })
      t.is(await Author.query().count(), 0, 'nothing written')
      const author = await Author.create({ name: 'Ada', email: 'ada@example.com', secret: 's3' })
      t.is(typeof author.id, 'number')
      t.true(author.getAttribute('created_at') instanceof Date)
      t.deepEqual(Object.keys(author.toDict()).sort(), ['created_at', 'email', 'id', 'name', 'updated_at'])
      t.false('nope' in author.toDict())
      const post = await Post.create({ author_id: author.id, title: 'Hello', meta: { tags: ['a'] }, published: true, views: 3 })
      const loaded = (await Post.find(post.id))!
      t.deepEqual(loaded.meta, { tags: ['a'] })
      t.is(loaded.published, true)
      t.is(loaded.getAttribute('views'), 3)
      t.is(JSON.parse(JSON.stringify(loaded)).title, 'Hello')
      await t.throwsAsync(Post.findOrFail(123456), { message: /No Post with key 123456/ })
      t.is(await Post.find('1; drop table posts'), undefined)
    }))

  test(`${dialect}: query builder where/whereIn/orderBy/limit/count/paginate/update/delete`, (t) =>
    within(t, async () => {
      for (let i = 1; i <= 7; i++) await Post.create({ title: `P${i}`, views: i, published: i % 2 === 0 })
      t.is(await Post.query().where('views', '>', 4).count(), 3)
      t.deepEqual(
        (await Post.query().whereIn('views', [1, 3]).orderBy('views', 'desc').get()).map((p) => p.title),
        ['P3', 'P1'],
      )
      t.is((await Post.query().where('published', true).orderBy('id').first())!.title, 'P2')
      const page = await Post.query().orderBy('id').paginate(3, 3)
      t.deepEqual({ ...page, data: page.data.map((p) => p.title) }, { data: ['P7'], total: 7, perPage: 3, currentPage: 3, lastPage: 3 })
      t.is(await Post.query().where('views', '<=', 2).update({ title: 'low' }), 2)
      t.is(await Post.query().where('title', '=', 'low').count(), 2)
      t.throws(() => Post.query().where('title; drop', '=', 1), { message: /Invalid column name/ })
      t.throws(() => Post.query().where('title', 'union select', 1), { message: /Invalid operator/ })
      t.is(await Post.query().whereIn('id', []).count(), 0)
    }))

  test(`${dialect}: page, limit and offset from a URL are brought to safe whole numbers, never into the SQL as Infinity or 1e+308`, (t) =>
    within(t, async () => {
      for (let i = 1; i <= 3; i++) await Post.create({ title: `P${i}`, views: i })
      for (const page of [Number('99999999999999999999'), 1e308, Infinity, Number('1e400')]) {
        const result = await Post.query().orderBy('id').paginate(2, page)
        t.deepEqual([result.data.length, result.currentPage, result.lastPage], [0, Number.MAX_SAFE_INTEGER, 2])
      }
      for (const page of [NaN, -5, 0]) t.is((await Post.query().orderBy('id').paginate(2, page)).currentPage, 1)
      t.is((await Post.query().orderBy('id').paginate(Infinity, 1)).data.length, 3)
      t.is((await Post.query().orderBy('id').paginate(NaN, 1)).perPage, 15)
      t.is((await Post.query().orderBy('id').limit(Infinity).get()).length, 3)
      t.is((await Post.query().orderBy('id').limit(NaN).get()).length, 0)
      t.is((await Post.query().orderBy('id').offset(1e308).get()).length, 0)
      t.is((await Post.query().orderBy('id').offset(-1).limit(1).get())[0]!.title, 'P1')
    }))

  test(`${dialect}: soft deletes, withTrashed, restore, forceDelete and model events`, (t) =>
    within(t, async () => {
      const events: string[] = []
      Post.clearListeners()
      Post.observe({
        deleting: () => void events.push('deleting'),
        trashed: () => void events.push('trashed'),
        restored: () => void events.push('restored'),
        forceDeleted: () => void events.push('forceDeleted'),
      })
      Post.on('creating', (p) => {
        if (p.title === 'blocked') return false
      })
      const post = await Post.create({ title: 'soft' })
      t.false(await new Post({ title: 'blocked' }).save(), 'a creating listener cancelled the save')
      t.is(await Post.query().where('title', 'blocked').count(), 0)
      await post.delete()
      t.true(post.trashed())
      t.is(await Post.find(post.id), undefined)
      t.truthy(await Post.query().withTrashed().where('id', post.id).first())
      t.is(await Post.query().onlyTrashed().count(), 1)
      await post.restore()
      t.truthy(await Post.find(post.id))
      await post.forceDelete()
      t.is(await Post.query().withTrashed().count(), 0)
      t.deepEqual(events, ['deleting', 'trashed', 'restored', 'deleting', 'forceDeleted'])
      Post.clearListeners()
    }))

  test(`${dialect}: hasMany/belongsTo and polymorphic morphMany/morphTo`, (t) =>
    within(t, async () => {
      const author = await Author.create({ name: 'Grace' })
      const post = await author.posts().create({ title: 'Via relation' })
      t.is(post.getAttribute('author_id'), author.id)
      t.is((await post.author().first())!.name, 'Grace')
      t.is(await author.posts().count(), 1)
      const comment = await author.comments().create({ body: 'hi' })
      t.is(comment.getAttribute('commentable_type'), 'Author')
      t.is((await author.comments().where('id', '=', comment.getKey()).first())!.body, 'hi')
      const owner = await comment.morphTo<Author>('commentable')
      t.is(owner?.name, 'Grace')
      await author.comments().where('id', '=', comment.getKey()).delete()
      t.is(await author.comments().count(), 0)
    }))

  test(`${dialect}: transactions commit, roll back, nest with savepoints, and run afterCommit only on commit`, (t) =>
    within(t, async (app) => {
      const db = app.service('db')
      const ran: string[] = []
      await db.transaction(async () => {
        await Author.create({ name: 'committed' })
        afterCommit(() => void ran.push('outer'))
        await db
          .transaction(async () => {
            await Author.create({ name: 'inner-rolled-back' })
            afterCommit(() => void ran.push('inner-dropped'))
            throw new Error('inner')
          })
          .catch(() => {})
        await db.transaction(async () => {
          await Author.create({ name: 'inner-kept' })
          afterCommit(() => void ran.push('inner-kept'))
        })
        t.deepEqual(ran, [], 'nothing runs before the outer commit')
      })
      t.deepEqual(ran, ['outer', 'inner-kept'])
      await t.throwsAsync(
        db.transaction(async () => {
          await Author.create({ name: 'rolled-back' })
          afterCommit(() => void ran.push('never'))
          throw new Error('boom')
        }),
        { message: 'boom' },
      )
      t.deepEqual(
        (await Author.query().orderBy('name').get()).map((a) => a.name),
        ['committed', 'inner-kept'],
      )
      t.false(ran.includes('never'))
    }))
}
