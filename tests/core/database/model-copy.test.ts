import test from 'ava'
import { Model, runWithApp } from '../../../core/index.ts'
import { databaseApp } from '../../fixtures/database.ts'

// Over the suite's tables (posts: author_id, title, meta, published, views).
class Post extends Model {
  static table = 'posts'
  static casts = { meta: 'json', published: 'boolean' } as const
  static guarded: string[] = []
  declare id: number
  declare title: string
  declare meta: { tags: string[] }
  declare created_at: Date
}

test('hydrateCopy: a loaded model from cast attributes that shares no date or JSON value with them, and saves like any loaded model', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  await runWithApp(app, async () => {
    const stored = await Post.create({ title: 'Hi', meta: { tags: ['a'] }, published: true })
    const source = (await Post.find(stored.id))!
    const copy = Post.hydrateCopy(source.$attributes)
    t.true(copy instanceof Post)
    t.true(copy.$exists)
    t.false(copy.isDirty())
    t.deepEqual(copy.toDict(), source.toDict())
    copy.meta.tags.push('b')
    copy.created_at.setTime(0)
    t.deepEqual(source.meta, { tags: ['a'] })
    t.not(source.created_at.getTime(), 0)
    copy.title = 'Changed'
    t.true(await copy.save())
    t.is((await Post.find(stored.id))!.title, 'Changed')
  })
})

test('hydrateCopy copies a JSON "__proto__" key as a key, not as the prototype', (t) => {
  const meta = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>
  const copy = Post.hydrateCopy({ id: 1, meta })
  const copied = copy.getAttribute<Record<string, unknown>>('meta')
  t.is(Object.getPrototypeOf(copied), Object.prototype)
  t.deepEqual(Object.keys(copied), ['__proto__', 'x'])
  t.is((copied as { polluted?: boolean }).polluted, undefined)
})

test('toDict gives a date changed in place as its new time (ISO strings are remembered by time, not by Date)', (t) => {
  const post = Post.hydrateCopy({ id: 1, created_at: new Date('2026-01-02T03:04:05.006Z') })
  t.is(post.toDict().created_at, '2026-01-02T03:04:05.006Z')
  post.created_at.setTime(Date.UTC(2020, 0, 1))
  t.is(post.toDict().created_at, '2020-01-01T00:00:00.000Z')
  t.throws(() => Post.hydrateCopy({ id: 1, created_at: new Date(NaN) }).toDict(), { instanceOf: RangeError })
})
