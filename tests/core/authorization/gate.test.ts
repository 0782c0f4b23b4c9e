import test from 'ava'
import { createApp, definePlugin, Gate, view, type Application, type HttpContext } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class Post {
  constructor(
    public id: number,
    public authorId: number,
  ) {}
}
class Comment {
  constructor(public authorId: number) {}
}
class CommentPolicy {
  before(user: { admin?: boolean }) {
    return user.admin ? true : undefined
  }
  update(user: { id: number }, comment: Comment) {
    return comment.authorId === user.id
  }
}

const users: Record<string, { id: number; admin?: boolean }> = { ada: { id: 1 }, bob: { id: 2 }, root: { id: 3, admin: true } }
const posts = [new Post(1, 1), new Post(2, 2)]
const comment = new Comment(1)

const files = {
  // Found by the model's class name: Post → app/policies/post-policy.ts.
  'app/policies/post-policy.ts': `export class PostPolicy {
  update(user, post) { return post.authorId === user.id }
  toString() { return 'not an ability' }
}
`,
  'resources/views/post.hbs': '{{#can "update" post}}<button>Edit</button>{{else}}<i>read only</i>{{/can}}{{#cannot "see-reports"}} no reports{{/cannot}}',
}

const routes = definePlugin({
  name: 'gate-routes',
  boot(app: Application) {
    Gate.define('see-reports', (user) => user.admin === true)
    Gate.define('read-news', () => true, { allowGuests: true })
    Gate.policy(Comment, CommentPolicy)
    const as = (ctx: HttpContext) => {
      const name = ctx.request.header('x-user')
      if (name) ctx.request.setUser(users[name])
      return posts[Number(ctx.request.query().post ?? 1) - 1]!
    }
    app.router.get('/posts/edit', async (ctx) => {
      const post = as(ctx)
      await ctx.authorize('update', post)
      return { edited: post.id }
    })
    app.router.get('/reports', async (ctx) => (as(ctx), await ctx.authorize('see-reports'), { reports: [] }))
    app.router.get('/abilities', async (ctx) => {
      const post = as(ctx)
      return {
        update: await ctx.can('update', post),
        cannotUpdate: await ctx.cannot('update', post),
        news: await Gate.allows('read-news'),
        comment: await ctx.can('update', comment),
        toString: await ctx.can('toString', post),
        constructor: await ctx.can('constructor', post),
        unknown: await ctx.can('fly', post),
      }
    })
    app.router.get('/posts/show', (ctx) => view('post', { post: as(ctx) }))
  },
})

async function makeApp(t: { teardown(fn: () => unknown): void }) {
  const app = await createApp({ root: tempApp(files), env: { APP_ENV: 'test' }, plugins: [routes], config: { session: { driver: 'memory' } } })
  t.teardown(() => app.close())
  return app
}

test('ctx.authorize() answers 403 with JSON { message, code } when the policy refuses, and lets the owner through', async (t) => {
  const app = await makeApp(t)
  const refused = await app.request('/posts/edit?post=2', { headers: { 'x-user': 'ada', accept: 'application/json' } })
  t.is(refused.status, 403)
  t.deepEqual(await refused.json(), { message: 'This action is unauthorized.', code: 'E_UNAUTHORIZED_ACCESS' })
  const guest = await app.request('/posts/edit?post=1', { headers: { accept: 'application/json' } })
  t.is(guest.status, 403, 'guests are refused without asking the policy')
  const owner = await app.request('/posts/edit?post=1', { headers: { 'x-user': 'ada' } })
  t.is(owner.status, 200)
  t.deepEqual(await owner.json(), { edited: 1 })
  t.is((await app.request('/reports', { headers: { 'x-user': 'ada', accept: 'application/json' } })).status, 403)
  t.is((await app.request('/reports', { headers: { 'x-user': 'root' } })).status, 200)
})

test("can()/cannot(): discovered and registered policies, a policy's before(), guests, and no Object.prototype methods as abilities", async (t) => {
  const app = await makeApp(t)
  const ask = async (user?: string, post = 1) =>
    (await app.request(`/abilities?post=${post}`, { headers: user ? { 'x-user': user } : {} })).json() as Promise<Record<string, boolean>>
  t.deepEqual(await ask('ada'), { update: true, cannotUpdate: false, news: true, comment: true, toString: false, constructor: false, unknown: false })
  t.like(await ask('bob'), { update: false, cannotUpdate: true, comment: false })
  t.like(await ask('root'), { update: false, comment: true }, "CommentPolicy's before() lets an admin through; PostPolicy has none")
  t.like(await ask(undefined), { update: false, news: true, comment: false })
})

test('{{#can}} and {{#cannot}} in views show the branch for the request’s user', async (t) => {
  const app = await makeApp(t)
  t.is(await (await app.request('/posts/show?post=1', { headers: { 'x-user': 'ada' } })).text(), '<button>Edit</button> no reports')
  t.is(await (await app.request('/posts/show?post=2', { headers: { 'x-user': 'ada' } })).text(), '<i>read only</i> no reports')
  t.is(await (await app.request('/posts/show?post=2', { headers: { 'x-user': 'root' } })).text(), '<i>read only</i>')
})
