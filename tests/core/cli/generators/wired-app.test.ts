import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import test from 'ava'
import { Queue, runWithApp, type Application, type Middleware } from '../../../../core/index.ts'
import { createTestApp, TestClient } from '../../../../core/testing/index.ts'
import { broadcast, Broadcast, Channel, ShouldBroadcastNow, type BroadcastMessage } from '../../../../plugins/broadcasting/index.ts'
import { generateAll, kiln, kilnBin, starterCopy } from './generator-fixtures.ts'

// The starter app with every generator run, then wired up as the generators' hints say:
// routes in routes/api.ts, the guard and the broadcaster in config, the listener in config/events.ts.
const root = starterCopy()

const routes = `import { defineMiddleware, defineRoutes } from 'kiln-framework'
import { DashboardController } from '../app/controllers/admin/dashboard-controller.ts'
import { PostController } from '../app/controllers/post-controller.ts'
import { ensureAdmin } from '../app/middleware/ensure-admin.ts'

// Reached only when the middleware in front of it calls next().
const reached = defineMiddleware(async (_ctx, next) => {
  const response = await next()
  response.headers.set('x-reached', 'yes')
  return response
})

export default defineRoutes((Route) => {
  Route.get('/posts', [PostController, 'index']).name('posts.index')
  Route.post('/posts', [PostController, 'store']).name('posts.store')
  Route.get('/posts/{post}', [PostController, 'show']).name('posts.show')
  Route.put('/posts/{post}', [PostController, 'update']).name('posts.update')
  Route.delete('/posts/{post}', [PostController, 'destroy']).name('posts.destroy')
  Route.get('/admin/dashboards', [DashboardController, 'index'])
  Route.get('/admin', () => ({ admin: true })).middleware([ensureAdmin, reached])
  Route.get('/guarded', ({ request }) => ({ user: request.user() })).middleware(['auth:api-key'])
})
`

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(join(root, file), 'utf8')
  if (!text.includes(from)) throw new Error(`${file} has no "${from}"`)
  writeFileSync(join(root, file), text.replace(from, to))
}

test.before(async () => {
  for (const { argv, code, stderr } of await generateAll(root)) if (code !== 0) throw new Error(`${argv.join(' ')}: ${stderr}`)
  writeFileSync(join(root, 'routes/api.ts'), routes)
  edit(
    'config/app.ts',
    "import { tok } from 'kiln-framework/tok'",
    "import { tok } from 'kiln-framework/tok'\nimport { apiKeyGuard } from '../app/guards/api-key-guard.ts'\nimport auditDriver from '../app/broadcasters/audit-broadcaster.ts'",
  )
  edit('config/app.ts', 'hostedDriver]', 'hostedDriver, apiKeyGuard, auditDriver]')
  edit(
    'config/auth.ts',
    "tok: { driver: 'tok', provider: 'users' },",
    "tok: { driver: 'tok', provider: 'users' },\n    'api-key': { driver: 'api-key', provider: 'users' },",
  )
  edit('config/broadcasting.ts', "null: { driver: 'null' },", "null: { driver: 'null' },\n    audit: { driver: 'audit' },")
  writeFileSync(
    join(root, 'config/events.ts'),
    "import { defineConfig } from 'kiln-framework'\nimport { PodcastProcessed } from '../app/events/podcast-processed.ts'\nimport { NotifySubscribers } from '../app/listeners/notify-subscribers.ts'\n\nexport default defineConfig({ listen: [[PodcastProcessed, [NotifySubscribers]]] })\n",
  )
})

async function app(t: { teardown(fn: () => unknown): void }): Promise<Application> {
  const created = await createTestApp({ root })
  t.teardown(() => created.close())
  return created
}

// The generated modules, as the app loads them (same URL, same classes).
function load<T>(file: string): Promise<T> {
  return import(pathToFileURL(join(root, file)).href) as Promise<T>
}

/** Records calls to a method of a generated class while still running it. */
function record<A extends unknown[]>(t: { teardown(fn: () => unknown): void }, prototype: object, method: string): A[] {
  const calls: A[] = []
  const target = prototype as Record<string, (...args: A) => unknown>
  const original = target[method]!
  target[method] = function (this: unknown, ...args: A) {
    calls.push(args)
    return original.apply(this, args)
  }
  t.teardown(() => {
    target[method] = original
  })
  return calls
}

test('a generated resource controller answers its routes', async (t) => {
  const client = new TestClient(await app(t))
  const list = await client.get('/posts?page=3')
  t.is(list.status, 200)
  t.deepEqual(await list.json(), { data: [], page: 3 })
  const stored = await client.json('POST', '/posts', { title: 'Hello' })
  t.is(stored.status, 201)
  t.deepEqual(await stored.json(), { data: {} }, 'nothing is stored until the controller lists the fields it accepts')
  t.deepEqual(await (await client.get('/posts/7')).json(), { data: { id: '7' } })
  t.deepEqual(await (await client.json('PUT', '/posts/7', {})).json(), { data: { id: '7' } })
  const deleted = await client.delete('/posts/7')
  t.is(deleted.status, 204)
  t.is(await deleted.text(), '')
  t.deepEqual(await (await client.get('/admin/dashboards')).json(), { data: [], page: 1 })
})

test('a generated middleware runs and hands the request on', async (t) => {
  const { ensureAdmin } = await load<{ ensureAdmin: Middleware }>('app/middleware/ensure-admin.ts')
  const kilnApp = await app(t)
  const client = new TestClient(kilnApp)
  // As mounted in routes/api.ts.
  const mounted = await client.get('/admin')
  t.is(mounted.status, 200)
  t.is(mounted.header('x-reached'), 'yes')
  t.deepEqual(await mounted.json(), { admin: true })
  // Called once per request, and it calls the rest of the pipeline once.
  let calls = 0
  let nexts = 0
  kilnApp.router
    .get('/counted', () => ({ counted: true }))
    .middleware([
      (ctx, next, params) => {
        calls++
        return ensureAdmin(ctx, () => (nexts++, next()), params)
      },
    ])
  const counted = await client.get('/counted')
  t.deepEqual(await counted.json(), { counted: true })
  t.deepEqual({ calls, nexts }, { calls: 1, nexts: 1 })
})

test('a generated guard is a guard driver: auth:api-key answers 401 JSON for a guest', async (t) => {
  const { ApiKeyGuard } = await load<{ ApiKeyGuard: new (...args: never[]) => unknown }>('app/guards/api-key-guard.ts')
  const kilnApp = await app(t)
  t.true(kilnApp.service('auth').guard('api-key') instanceof ApiKeyGuard)
  const authenticate = record<unknown[]>(t, ApiKeyGuard.prototype, 'authenticate')
  const response = await new TestClient(kilnApp).get('/guarded', { accept: 'application/json' })
  t.is(response.status, 401)
  t.deepEqual(await response.json(), { message: 'Unauthenticated.' })
  t.is(authenticate.length, 1)
})

test('a generated listener wired in config/events.ts handles its event', async (t) => {
  const { NotifySubscribers } = await load<{ NotifySubscribers: { prototype: object } }>('app/listeners/notify-subscribers.ts')
  const { PodcastProcessed } = await load<{ PodcastProcessed: { dispatch(): Promise<void> } }>('app/events/podcast-processed.ts')
  const handled = record<[unknown]>(t, NotifySubscribers.prototype, 'handle')
  const kilnApp = await app(t)
  await runWithApp(kilnApp, () => PodcastProcessed.dispatch())
  t.is(handled.length, 1)
})

test('a generated job runs on the queue', async (t) => {
  const { ProcessPodcast } = await load<{ ProcessPodcast: { prototype: object; dispatch(): PromiseLike<void> } }>('app/jobs/process-podcast.ts')
  const handled = record<[]>(t, ProcessPodcast.prototype, 'handle')
  const kilnApp = await app(t)
  await runWithApp(kilnApp, async () => {
    await ProcessPodcast.dispatch()
    await Queue.flush()
    t.deepEqual(Queue.failed(), [])
  })
  t.is(handled.length, 1)
})

test('a generated broadcaster receives broadcasts sent through its connection', async (t) => {
  const { AuditBroadcaster } = await load<{ AuditBroadcaster: new (...args: never[]) => { broadcast(m: BroadcastMessage): Promise<void> } }>(
    'app/broadcasters/audit-broadcaster.ts',
  )
  const sent = record<[BroadcastMessage]>(t, AuditBroadcaster.prototype, 'broadcast')
  class PodcastLive extends ShouldBroadcastNow {
    broadcastOn() {
      return [new Channel('podcasts')]
    }
  }
  const kilnApp = await app(t)
  await runWithApp(kilnApp, async () => {
    t.true(Broadcast.connection('audit') instanceof AuditBroadcaster)
    await broadcast(new PodcastLive()).via('audit').send()
  })
  t.is(sent.length, 1)
  t.deepEqual(sent[0]![0].channels, ['podcasts'])
  t.is(sent[0]![0].event, 'PodcastLive')
})

test('generated commands are found in app/commands and run, in-process and through bin/kiln.js', async (t) => {
  const help = await kiln(['--help'], root)
  t.regex(help.stdout, /app:send-report/)
  t.regex(help.stdout, /posts:prune-drafts/)
  const ran = await kiln(['app:send-report'], root)
  t.is(ran.code, 0, ran.stderr)
  t.is(ran.stdout.trim(), 'Done.')
  const dry = await kiln(['posts:prune-drafts', '--dry'], root)
  t.is(dry.stdout.trim(), 'Nothing done (--dry).')
  const bin = await kilnBin(['app:send-report'], root)
  t.is(bin.code, 0, bin.stderr)
  t.is(bin.stdout.trim(), 'Done.')
})

test('generated migrations run with kiln migrate, the model works on the table, and migrate:rollback undoes them', async (t) => {
  t.timeout(120_000)
  const migrated = await kilnBin(['migrate'], root)
  t.is(migrated.code, 0, migrated.stderr)
  for (const name of ['create_blog_posts_table', 'add_slug_to_blog_posts', 'backfill_slugs'])
    t.regex(migrated.stdout, new RegExp(`Migrated: \\d{4}_\\d{2}_\\d{2}_\\d{6}_${name}\\n`))
  t.true(migrated.stdout.indexOf('create_blog_posts_table') < migrated.stdout.indexOf('add_slug_to_blog_posts'), 'made in that order, run in that order')

  const { BlogPost } = await load<{
    BlogPost: { create(a: object): Promise<{ id: number }>; find(id: number): Promise<{ id: number; created_at: Date } | undefined> }
  }>('app/models/blog-post.ts')
  const kilnApp = await app(t)
  await runWithApp(kilnApp, async () => {
    const post = await BlogPost.create({})
    const found = await BlogPost.find(post.id)
    t.is(found?.id, post.id)
    t.true(found?.created_at instanceof Date)
  })
  await kilnApp.close()

  const rolledBack = await kilnBin(['migrate:rollback'], root)
  t.is(rolledBack.code, 0, rolledBack.stderr)
  t.regex(rolledBack.stdout, /create_blog_posts_table/)
  const status = await kilnBin(['migrate:status'], root)
  t.regex(status.stdout, /create_blog_posts_table\s+no/)
})
