import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import test from 'ava'
import { defineFactory, KilnError, Model, runWithApp } from '../../../core/index.ts'
import { Author, Comment, databaseApp, Post } from '../../fixtures/database.ts'

defineFactory(Author, ({ fake }) => ({ name: fake.name(), email: fake.email() }), { states: { anonymous: { name: 'Anonymous', email: null } } })
defineFactory(Post, ({ fake, index }) => ({ title: `${fake.sentence()} #${index}`, published: true, views: 0 }), {
  states: { draft: { published: false }, popular: (attributes) => ({ views: Number(attributes.views) + 1000 }) },
})
// commentable_* are not fillable on Comment: a factory sets attributes whatever fillable says.
defineFactory(Comment, ({ fake }) => ({ body: fake.paragraph(1), commentable_type: 'Author' }))

// A model with a factory found by its file name, as `kiln make:factory Writer` writes it.
const writerFiles = {
  'database/migrations/0002_writers.ts': `import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('writers').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull().unique()).addColumn('verified', 'boolean')
    .addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
}
export async function down(db) { await db.schema.dropTable('writers').execute() }
`,
  'app/models/writer.ts': `import { Model } from 'kiln-framework'
export class Writer extends Model {
  static table = 'writers'
  static fillable = ['name', 'email']
  static casts = { verified: 'boolean' } as const
}
`,
  'database/factories/writer-factory.ts': `import { defineFactory } from 'kiln-framework'
import { Writer } from '../../app/models/writer.ts'
export default defineFactory(Writer, ({ fake }) => ({ name: fake.name(), email: fake.email(), verified: true }), {
  states: { unverified: { verified: false } },
})
`,
}

test('User.factory() finds database/factories/<model>-factory.ts: count, make, create, named states and overrides', async (t) => {
  const app = await databaseApp(t, 'sqlite', writerFiles)
  const { Writer } = (await import(pathToFileURL(join(app.root, 'app/models/writer.ts')).href)) as { Writer: typeof Model }
  await runWithApp(app, async () => {
    const writers = await Writer.factory().count(3).create()
    t.is(writers.length, 3)
    t.is(await Writer.query().count(), 3)
    t.is(new Set(writers.map((w) => w.getAttribute('email'))).size, 3, 'fake emails never repeat')
    for (const writer of writers) t.regex(String(writer.getAttribute('name')), /^[A-Z][a-z]+ [A-Z][a-z]+$/)

    const unsaved = await Writer.factory().make({ name: 'Ada' })
    t.false(unsaved.$exists)
    t.is(unsaved.getAttribute('name'), 'Ada')
    t.is(await Writer.query().count(), 3, 'make() saves nothing')

    const unverified = await Writer.factory().state('unverified').create({ name: 'Grace' })
    t.like((await Writer.find(unverified.getKey()))!.toDict(), { name: 'Grace', verified: false })
    t.is((await Writer.factory(2).make()).length, 2)

    await t.throwsAsync(Writer.factory().state('famous').create(), {
      instanceOf: KilnError,
      message: 'The Writer factory has no state "famous". Its states: unverified.',
    })
  })
})

test('a model without a factory says which file to create and with which command', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  class Ghost extends Model {
    static table = 'ghosts'
  }
  await runWithApp(app, async () => {
    await t.throwsAsync(Ghost.factory().create(), {
      message: 'Ghost has no factory. Create database/factories/ghost-factory.ts with `kiln make:factory Ghost`.',
    })
  })
})

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: for() sets the owner's key, has() creates children, sequence() takes turns, state functions see the attributes`, async (t) => {
    const app = await databaseApp(t, dialect)
    await runWithApp(app, async () => {
      const ada = await Author.factory().create({ name: 'Ada' })
      const posts = await Post.factory().count(2).for(ada, 'author_id').state('draft').create()
      t.deepEqual(
        posts.map((p) => [p.getAttribute('author_id'), p.published]),
        [
          [ada.id, false],
          [ada.id, false],
        ],
      )

      // One owner made by its factory, shared by every post.
      await Post.factory().count(3).for(Author.factory().state('anonymous'), 'author_id').create()
      const anonymous = await Author.query().where('name', '=', 'Anonymous').get()
      t.is(anonymous.length, 1)
      t.is(await anonymous[0]!.posts().count(), 3)

      const grace = await Author.factory()
        .has(Post.factory().count(2), 'author_id')
        .has(Comment.factory().count(3).state({ commentable_type: 'Author' }), 'commentable_id')
        .create({ name: 'Grace' })
      t.is(await grace.posts().count(), 2)
      t.is(await grace.comments().count(), 3)

      const sequenced = await Post.factory().count(3).sequence({ title: 'odd' }, { title: 'even' }).state('popular').create()
      t.deepEqual(
        sequenced.map((p) => [p.title, p.getAttribute('views')]),
        [
          ['odd', 1000],
          ['even', 1000],
          ['odd', 1000],
        ],
      )
      t.regex((await Post.factory().raw()).title as string, / #0$/)
    })
  })
}
