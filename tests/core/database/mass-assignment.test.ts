import test from 'ava'
import { MassAssignmentError, Model, runWithApp } from '../../../core/index.ts'
import { databaseApp } from '../../fixtures/database.ts'

// Models over the suite's tables (authors: name, email, secret; posts: author_id, title, meta, published, views).
class Draft extends Model {
  static table = 'posts'
}

class GuardedPost extends Model {
  static table = 'posts'
  static guarded = ['author_id', 'id']
}

class OpenPost extends Model {
  static table = 'posts'
  static guarded: string[] = []
}

class Writer extends Model {
  static table = 'authors'
  static fillable = ['name']
  declare name: string
  drafts() {
    return this.hasMany(Draft, 'author_id')
  }
}

test('a model without fillable accepts nothing by mass assignment: create() names what it refused and writes nothing', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  await runWithApp(app, async () => {
    const error = await t.throwsAsync(Draft.create({ title: 'Hello', views: 1 }), { instanceOf: MassAssignmentError })
    t.is(
      error.message,
      'Draft does not accept "title", "views" in create() or fill(). Add them to Draft.fillable, or set them on their own (model.title = ...).',
    )
    t.is(error.code, 'E_MASS_ASSIGNMENT')
    t.deepEqual(error.attributes, ['title', 'views'])
    t.is(await Draft.query().count(), 0)
    // One by one, or on purpose with forceCreate, attributes are set whatever fillable says.
    const draft = new Draft()
    draft.setAttribute('title', 'Set alone')
    await draft.save()
    t.is((await Draft.forceCreate({ title: 'Forced', views: 2 })).getAttribute('views'), 2)
    t.is(await Draft.query().count(), 2)
  })
})

test('fillable names what create() and fill() accept; one refused attribute refuses the whole call', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  await runWithApp(app, async () => {
    await t.throwsAsync(Writer.create({ name: 'Ada', is_admin: true }), {
      message: /^Writer does not accept "is_admin" in create\(\) or fill\(\)\. Add it to Writer\.fillable/,
    })
    const writer = await Writer.create({ name: 'Ada' })
    t.throws(() => writer.fill({ name: 'Grace', email: 'g@example.com' }), { instanceOf: MassAssignmentError, message: /"email"/ })
    t.is(writer.name, 'Ada', 'nothing of a refused fill is set')
    writer.fill({ name: 'Grace' })
    t.is(writer.name, 'Grace')
    // A relation sets its own key: author_id need not be fillable on Draft, but the rest of Draft's rules hold.
    const draft = await writer.drafts().forceCreate({ title: 'Through the relation' })
    t.is(draft.getAttribute('author_id'), writer.getKey())
    await t.throwsAsync(writer.drafts().create({ title: 'x' }), { instanceOf: MassAssignmentError })
  })
})

test('a guarded list refuses only its names; guarded = [] accepts everything; prototype keys are always refused', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  await runWithApp(app, async () => {
    const post = await GuardedPost.create({ title: 'Open', views: 3 })
    t.is(post.getAttribute('views'), 3)
    await t.throwsAsync(GuardedPost.create({ title: 'x', author_id: 1, id: 50 }), { message: /GuardedPost does not accept "author_id", "id"/ })
    t.is((await OpenPost.create({ title: 'All', author_id: 7 })).getAttribute('author_id'), 7)
    const hostile = JSON.parse('{"title":"x","__proto__":{"polluted":true}}') as Record<string, unknown>
    t.throws(() => new OpenPost(hostile), { instanceOf: MassAssignmentError, message: /"__proto__"/ })
    t.throws(() => new OpenPost().forceFill(hostile), { message: /"__proto__" cannot be an attribute/ })
    t.is(({} as Record<string, unknown>).polluted, undefined)
  })
})
