import test from 'ava'
import { Migrator, runWithApp, view } from '../../../../core/index.ts'
import websocketDriver from '../../../../drivers/websocket/index.ts'
import { broadcasting, PrivateChannel, ShouldBroadcastNow } from '../../../../plugins/broadcasting/index.ts'
import { Author, Post } from '../../../../tests/core/database/database-suite.ts'
import { browserApp, textIs, type BrowserApp, type TestPage } from '../../../../tests/plugins/comp/browser-app.ts'

// Components that hear broadcasts: a feed of an author's posts on that author's private channel, a presence roster,
// and a board that can take the feed off the page. The routes' model classes come through globalThis (one module graph).
const files: Record<string, string> = {
  'database/migrations/0001_x.ts': `import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('authors').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('email', 'varchar(255)').addColumn('secret', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
  await db.schema.createTable('posts').addColumn('id', ...increments(db)).addColumn('author_id', 'integer').addColumn('title', 'varchar(255)').addColumn('meta', 'text').addColumn('published', 'boolean').addColumn('views', 'integer').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').addColumn('deleted_at', 'timestamp').execute()
}`,
  'routes/channels.ts': `import { defineChannels } from 'kiln-framework/broadcasting'
export default defineChannels((Broadcast) => {
  Broadcast.channel('authors.{id}', (user, id) => String(user.id) === id)
  Broadcast.channel('room.{id}', (user) => ({ id: user.id, name: user.name }))
})
`,
  'app/components/feed.ts': `import { Component, on } from 'kiln-framework/comp'
export default class Feed extends Component {
  authorId = 0
  heard = ''
  mount({ authorId }: { authorId: number }) { this.authorId = authorId }
  @on('echo-private:authors.{authorId},PostCreated') created(title: string) { this.heard = title }
  async with() {
    const Post = (globalThis as any).__Post
    return { posts: await Post.query().where('author_id', '=', this.authorId).orderBy('id').get() }
  }
  render() { return '<section data-feed="{{authorId}}"><ul>{{#each posts}}<li>{{title}}</li>{{/each}}</ul><p class="heard">{{heard}}</p></section>' }
}
`,
  'app/components/roster.ts': `import { Component, on } from 'kiln-framework/comp'
export default class Roster extends Component {
  room = 7
  here = 0
  @on('echo-presence:room.{room},here') present(members: unknown[]) { this.here = members.length }
  @on('echo-presence:room.{room},joining') joined() { this.here++ }
  @on('echo-presence:room.{room},leaving') left() { this.here-- }
  render() { return '<p class="roster">{{here}}</p>' }
}
`,
  'app/components/board.ts': `import { Component } from 'kiln-framework/comp'
export default class Board extends Component {
  authorId = 0
  showFeed = true
  mount({ authorId }: { authorId: number }) { this.authorId = authorId }
  render() { return '<div><button class="toggle" wire:click="$toggle(\\'showFeed\\')">toggle</button>{{#if showFeed}}@comp(\\'feed\\', authorId=authorId, key=\\'feed\\'){{/if}}</div>' }
}
`,
  'resources/views/feeds.hbs': "{{!< layouts/app}}\n{{#each ids}}{{{comp 'feed' authorId=this}}}{{/each}}{{{comp 'roster'}}}",
  'resources/views/board.hbs': '{{!< layouts/app}}\n{{{comp \'board\' authorId=id}}}<a class="away" href="/plain" wire:navigate>away</a>',
  'resources/views/plain.hbs': '{{!< layouts/app}}\n<p class="plain">No components here.</p>',
}

/** The broadcast of a new post, on its author's private channel. */
class PostCreated extends ShouldBroadcastNow {
  constructor(public post: Post) {
    super()
  }

  broadcastOn() {
    return [new PrivateChannel(`authors.${this.post.getAttribute('author_id')}`)]
  }

  broadcastWith() {
    return { title: this.post.title }
  }
}

const config = {
  database: { default: 'main', connections: { main: { driver: 'sqlite', filename: ':memory:' } } },
  auth: { guards: { web: { driver: 'session', provider: 'authors' } }, providers: { authors: { driver: 'model', model: () => Author } } },
  broadcasting: { default: 'rt', connections: { rt: { driver: 'rt' } } },
}

let served: BrowserApp
let ids: { ada: number; grace: number }

test.before(async () => {
  ;(globalThis as Record<string, unknown>).__Post = Post
  served = await browserApp(files, { config, plugins: [broadcasting(), websocketDriver] })
  const { app } = served
  await new Migrator(app).migrate()
  const [ada, grace] = await runWithApp(app, async () => [await Author.create({ name: 'Ada' }), await Author.create({ name: 'Grace' })])
  ids = { ada: ada!.id, grace: grace!.id }
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/as/{id}', async ({ params, auth }) => {
      await auth.login((await Author.find(params.id))!)
      return { ok: true }
    })
    app.router.get('/feeds/{ids}', ({ params }) => view('feeds', { title: 'Feeds', ids: params.ids!.split(',').map(Number) }))
    app.router.get('/board/{id}', ({ params }) => view('board', { title: 'Board', id: Number(params.id) }))
    app.router.get('/plain', () => view('plain', { title: 'Plain' }))
  })
  // What another client of the app does: an API call that adds a post and broadcasts it.
  app.router.post('/api/authors/{id}/posts', async ({ params, request }) => {
    const post = new Post()
    post.setAttribute('author_id', Number(params.id))
    post.title = String(request.input('title'))
    await post.save()
    await PostCreated.dispatch(post)
    return { id: post.id }
  })
})
test.after.always(() => served?.close())

async function as(
  t: Parameters<BrowserApp['newPage']>[0],
  id: number,
  path: string,
): Promise<TestPage & { warnings: string[]; frames: () => Promise<string[]> }> {
  const tab = await served.newPage(t)
  const warnings: string[] = []
  tab.page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()))
  // The frames the page's sockets send, to see subscriptions come and go.
  await tab.page.addInitScript(() => {
    const sent: string[] = ((window as unknown as { __frames: string[] }).__frames = [])
    const send = WebSocket.prototype.send
    WebSocket.prototype.send = function (data) {
      sent.push(String(data))
      return send.call(this, data)
    }
  })
  await tab.page.goto(`${served.url}/as/${id}`)
  await tab.open(path)
  return { ...tab, warnings, frames: () => tab.page.evaluate(() => (window as unknown as { __frames: string[] }).__frames) }
}

const subscribed = (channel: string) => (frames: string[]) => frames.some((frame) => frame.includes('"subscribe"') && frame.includes(`"${channel}"`))

async function addPost(authorId: number, title: string): Promise<void> {
  const res = await fetch(`${served.url}/api/authors/${authorId}/posts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ title }),
  })
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`)
}

test.serial('a private echo listener updates the list when an API call adds a record; a refused channel is never subscribed', async (t) => {
  const ada = await as(t, ids.ada, `/feeds/${ids.ada}`)
  await ada.page.waitForFunction(() => (window as unknown as { __frames: string[] }).__frames.some((f) => f.includes(`private-authors.`)))
  // Grace's page shows Ada's feed (not hers to hear: refused) and her own.
  const grace = await as(t, ids.grace, `/feeds/${ids.ada},${ids.grace}`)
  await grace.page.waitForFunction(
    (channel) => (window as unknown as { __frames: string[] }).__frames.some((f) => f.includes(channel)),
    `private-authors.${ids.grace}`,
  )
  await t.notThrowsAsync(
    ada.page.waitForFunction(
      (channel) => (window as unknown as { __frames: string[] }).__frames.some((f) => f.includes(channel)),
      `private-authors.${ids.ada}`,
    ),
  )

  await addPost(ids.ada, 'First post')
  await ada.page.waitForFunction(() => document.querySelector('[data-feed] li')?.textContent === 'First post')
  t.is(await ada.page.textContent('[data-feed] .heard'), 'First post', 'the listener got the broadcast data by parameter name')

  // Ada's channel was refused to Grace: nothing subscribes, the broadcast never reaches her page. A later broadcast on her own
  // channel, which the same socket delivers after it, proves the first one had its chance.
  await addPost(ids.grace, 'Grace writes')
  await grace.page.waitForFunction((id) => document.querySelector(`[data-feed="${id}"] li`)?.textContent === 'Grace writes', ids.grace)
  t.is(await grace.page.$$eval(`[data-feed="${ids.ada}"] li`, (items) => items.length), 0)
  t.false(subscribed(`private-authors.${ids.ada}`)(await grace.frames()), 'no subscribe frame for a refused channel')
  t.true(subscribed(`private-authors.${ids.grace}`)(await grace.frames()))
  t.true(
    grace.warnings.some((text) => text.includes(`echo-private:authors.${ids.ada},PostCreated`) && text.includes('403')),
    grace.warnings.join('\n'),
  )
  // The one console error: Chromium reports the refused authorisation request itself.
  t.deepEqual([...ada.errors, ...grace.errors], ['Failed to load resource: the server responded with a status of 403 ()'])
})

test.serial('presence echo listeners: here, joining and leaving across two users', async (t) => {
  const ada = await as(t, ids.ada, `/feeds/${ids.ada}`)
  await textIs(ada.page, '.roster', '1')
  const grace = await as(t, ids.grace, `/feeds/${ids.grace}`)
  await textIs(grace.page, '.roster', '2')
  await textIs(ada.page, '.roster', '2')
  await grace.page.close()
  await textIs(ada.page, '.roster', '1')
  t.pass()
})

test.serial('a component taken off the page (a parent render, wire:navigate) leaves its channel, and one put back subscribes again', async (t) => {
  const ada = await as(t, ids.ada, `/board/${ids.ada}`)
  const channel = `private-authors.${ids.ada}`
  await ada.page.waitForFunction((c) => (window as unknown as { __frames: string[] }).__frames.some((f) => f.includes('"subscribe"') && f.includes(c)), channel)
  await ada.page.click('.toggle')
  await ada.page.waitForFunction(
    (c) => (window as unknown as { __frames: string[] }).__frames.some((f) => f.includes('"unsubscribe"') && f.includes(c)),
    channel,
  )
  t.is(await ada.page.$$eval('[data-feed]', (items) => items.length), 0)
  await ada.page.click('.toggle')
  await ada.page.waitForFunction(
    (c) =>
      (window as unknown as { __frames: string[] }).__frames.filter((f) => f.includes('"subscribe"') && !f.includes('unsubscribe') && f.includes(c)).length ===
      2,
    channel,
  )
  await addPost(ids.ada, 'Back again')
  await ada.page.waitForFunction(() => [...document.querySelectorAll('[data-feed] li')].some((li) => li.textContent === 'Back again'))
  t.deepEqual(ada.errors, [])

  // wire:navigate to a page without it: the old body's components go, and their channel with them (no reload: the
  // frames recorded since the page loaded are all there).
  await ada.page.click('.away')
  await ada.page.waitForSelector('.plain')
  await ada.page.waitForFunction(
    (c) => (window as unknown as { __frames: string[] }).__frames.filter((f) => f.includes('"unsubscribe"') && f.includes(c)).length === 2,
    channel,
  )
  t.deepEqual(ada.errors, [])
})
