/**
 * The starter deployed as an operator deploys it: two app processes on two
 * "machines" (copies with their own storage/), behind a round-robin balancer
 * they trust, on PostgreSQL and Redis, with a `kiln queue:work` worker, and
 * driven the way users drive it: through the balancer, from several client
 * addresses, so consecutive requests land on different processes.
 */
import test from 'ava'
import { deployStarter, type Deployment } from '../fixtures/deployment.ts'
import { HttpSession } from '../fixtures/http-session.ts'
import { mimePart } from '../fixtures/smtp-server.ts'
import { TestSocket } from '../drivers/broadcast/websocket/rt-fixtures.ts'
import { endpointOf, snapshots, type PageSnapshot } from '../plugins/comp/comp-fixtures.ts'

const cleanup: Array<() => unknown> = []
let deployment: Deployment

/** A scheduled task both machines have, as every server of a deployment has the same routes/console.ts. */
const CONSOLE = `import { defineSchedule } from 'kiln-framework'

export default defineSchedule((Schedule) => {
  Schedule.command('tok:prune-expired', ['--hours=24']).everyMinute().onOneServer()
})
`

test.before(async () => {
  deployment = await deployStarter({ teardown: (fn) => void cleanup.push(fn) }, { files: { 'routes/console.ts': CONSOLE } })
})

test.after.always(async () => {
  for (const fn of cleanup.reverse()) await fn()
})

/** Requests the balancer sent to each app process since `before`. */
function spread(before: Map<number, number>): number[] {
  return deployment.apps.map((app) => (deployment.balancer.served.get(app.port) ?? 0) - (before.get(app.port) ?? 0))
}

async function login(session: HttpSession, email = 'test@example.com', password = 'password') {
  await session.send('GET', '/login', { headers: { accept: 'text/html' } })
  return session.send('POST', '/login', { json: { email, password } })
}

async function component(session: HttpSession, path: string) {
  const page = await session.send('GET', path, { headers: { accept: 'text/html' } })
  return { snapshot: snapshots(page.body)[0]!, endpoint: endpointOf(page.body), html: page.body }
}

async function call(
  session: HttpSession,
  state: { snapshot: PageSnapshot; endpoint: string },
  calls: Array<{ method: string; params?: unknown[] }>,
  updates: Array<[string, unknown]> = [],
) {
  const { snapshot, endpoint } = state
  const answer = await session.send('POST', endpoint, {
    json: { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates, calls, island: null },
    headers: { 'x-csrf-token': session.cookie('XSRF-TOKEN') ?? '' },
  })
  if (answer.status !== 200) throw new Error(`${answer.status} ${answer.body}`)
  const json = answer.json()
  return { json, state: { snapshot: { fingerprint: snapshot.fingerprint, serverMemo: json.serverMemo }, endpoint: json.effects.endpoint ?? endpoint } }
}

test.serial('the balancer spreads requests over both processes, and /up answers on each', async (t) => {
  const before = new Map(deployment.balancer.served)
  for (let i = 0; i < 4; i++) t.is((await new HttpSession(deployment.balancer.url).send('GET', '/up')).status, 200)
  t.deepEqual(spread(before), [2, 2])
})

test.serial('readiness through the balancer: the database and every Redis the deployment shares are checked, and up', async (t) => {
  const probe = new HttpSession(deployment.balancer.url)
  // A process's first probe loads its Redis and PostgreSQL clients: a balancer probes again, so does this test.
  let answer = await probe.send('GET', '/up?ready')
  for (let tries = 0; answer.status !== 200 && tries < 20; tries++) answer = await probe.send('GET', '/up?ready')
  t.is(answer.status, 200, answer.body)
  const { checks } = answer.json<{ checks: Record<string, string> }>()
  for (const name of ['database', 'session', 'storage.cache', 'storage.tmp', 'storage.local', 'storage.throttle', 'queue', 'broadcasting.rt', 'tok.cache'])
    t.is(checks[name], 'ok', name)
})

test.serial('a session started on one process is known to the other: login, CSRF, pages, logout', async (t) => {
  const alice = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.2' })
  const before = new Map(deployment.balancer.served)
  t.is((await login(alice)).status, 200)
  for (let i = 0; i < 4; i++) t.is((await alice.send('GET', '/profile', { headers: { accept: 'text/html' } })).status, 200)
  t.true(
    spread(before).every((count) => count >= 2),
    'both processes served the logged-in user',
  )
  t.is((await alice.send('POST', '/logout', { json: {} })).status, 200)
  for (let i = 0; i < 2; i++) t.is((await alice.send('GET', '/profile', { headers: { accept: 'text/html' } })).status, 302)
})

test.serial('the login throttle counts each client behind the balancer, not the balancer: one client cannot lock out the others', async (t) => {
  const attacker = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.3' })
  await attacker.send('GET', '/login', { headers: { accept: 'text/html' } })
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await attacker.send('POST', '/login', { json: { email: 'sam@example.com', password: 'wrong' } })).status)
  t.deepEqual(statuses, [422, 422, 422, 422, 422, 429], 'five tries a minute, counted across both processes')
  // A forged X-Forwarded-For is the attacker's own text, left of the address the balancer saw: it changes nothing.
  const forged = await attacker.send('POST', '/login', { json: { email: 'sam@example.com', password: 'wrong' }, headers: { 'x-forwarded-for': '203.0.113.9' } })
  t.is(forged.status, 429)
  const sam = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.4' })
  t.is((await login(sam, 'sam@example.com')).status, 200, 'the real user, from another address, still logs in')
})

test.serial('a component rendered by one process is updated by the other', async (t) => {
  const visitor = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.5' })
  const before = new Map(deployment.balancer.served)
  let state: { snapshot: PageSnapshot; endpoint: string } = await component(visitor, '/counter')
  for (let i = 0; i < 3; i++) state = (await call(visitor, state, [{ method: 'increment' }])).state
  const last = await call(visitor, state, [{ method: 'increment' }])
  t.regex(last.json.effects.html, /data-test="count">4</)
  t.true(spread(before).every((count) => count >= 2))
})

test.serial('a to-do added on one process is broadcast by the worker to a socket held by the other process, once', async (t) => {
  const maria = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.6' })
  t.is((await login(maria, 'maria@example.com')).status, 200)
  const { rows } = await deployment.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'maria@example.com'`)
  const channel = `private-app.models.User.${rows[0]!.id}`
  const socket = new TestSocket(`${deployment.balancer.url.replace('http', 'ws')}/broadcasting/socket`)
  t.teardown(() => socket.raw.terminate())
  const socketId = await socket.ready()
  const auth = await maria.send('POST', '/broadcasting/auth', { json: { socket_id: socketId, channel_name: channel } })
  t.is(auth.status, 200, auth.body)
  socket.send({ event: 'subscribe', data: { channel, auth: auth.json().auth } })
  await socket.event('svc:subscription_succeeded', channel)

  const todos = await component(maria, '/todos')
  await call(maria, todos, [{ method: 'add' }], [['form.title', 'Ship the release']])
  const frame = await socket.event('TodosChanged', channel, 15_000)
  t.is(frame.channel, channel)
  t.true(await socket.nothing((f) => f.event === 'TodosChanged', 500), 'delivered exactly once')
  t.notRegex(deployment.worker.output(), /Unknown job|failed\(\) hook/)
})

test.serial('one process restarts under load and no request fails', async (t) => {
  const client = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.7' })
  const statuses: number[] = []
  let running = true
  const load = (async () => {
    while (running) statuses.push((await client.send('GET', '/counter', { headers: { accept: 'text/html' } })).status)
  })()
  await new Promise((resolve) => setTimeout(resolve, 300))
  const old = deployment.apps[1]!
  t.is(await old.stop('SIGTERM'), 0, 'the old process drains and exits 0')
  const fresh = await deployment.serve(1)
  deployment.balancer.upstreams.splice(deployment.balancer.upstreams.indexOf(old.port), 1, fresh.port)
  deployment.apps[1] = fresh
  await new Promise((resolve) => setTimeout(resolve, 300))
  running = false
  await load
  t.true(statuses.length > 10)
  t.deepEqual([...new Set(statuses)], [200])
})

test.serial('presence across processes: two users on sockets held by different processes see each other join', async (t) => {
  const users = [
    { session: new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.11' }), email: 'maria@example.com' },
    { session: new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.12' }), email: 'sam@example.com' },
  ]
  for (const user of users) t.is((await login(user.session, user.email)).status, 200)
  // Opened back to back, nothing between them: the balancer hands them to its two upstreams in turn.
  const before = new Map(deployment.balancer.served)
  const sockets: TestSocket[] = []
  const ids: string[] = []
  for (let i = 0; i < 2; i++) {
    const socket = new TestSocket(`${deployment.balancer.url.replace('http', 'ws')}/broadcasting/socket`)
    t.teardown(() => socket.raw.terminate())
    sockets.push(socket)
    ids.push(await socket.ready())
  }
  t.deepEqual(spread(before), [1, 1], 'one socket on each process')
  for (const [i, user] of users.entries()) {
    const auth = await user.session.send('POST', '/broadcasting/auth', { json: { socket_id: ids[i], channel_name: 'presence-chat' } })
    t.is(auth.status, 200, auth.body)
    sockets[i]!.send({ event: 'subscribe', data: { channel: 'presence-chat', ...auth.json() } })
    await sockets[i]!.event('svc:subscription_succeeded', 'presence-chat')
  }
  const joined = await sockets[0]!.event('svc:member_added', 'presence-chat')
  t.is(joined.data.user_info.name, 'Sam Lee')
})

test.serial('a token revoked through one process is refused by the other at once (the token cache on Redis)', async (t) => {
  const cli = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.13' })
  const issued = await cli.send('POST', '/tok/token', { json: { email: 'maria@example.com', password: 'password', device_name: 'deploy-test' } })
  t.is(issued.status, 201, issued.body)
  const token = issued.json<{ token: string }>().token
  const bearer = { authorization: `Bearer ${token}` }
  // Once on each process: both hold the verified token in their caches now.
  for (let i = 0; i < 2; i++) t.is((await cli.send('GET', '/user', { headers: bearer })).status, 200)
  const maria = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.14' })
  t.is((await login(maria, 'maria@example.com')).status, 200)
  const tokens = await component(maria, '/tokens')
  await call(maria, tokens, [{ method: 'revoke', params: [Number(token.split('|')[0])] }])
  for (let i = 0; i < 2; i++) t.is((await cli.send('GET', '/user', { headers: bearer })).status, 401)
})

test.serial('schedule:run on both machines in the same minute: the onOneServer task runs on one of them', async (t) => {
  const at = '--time=2026-11-28T10:00:00Z'
  const runs = await Promise.all([deployment.run(0, ['schedule:run', at]), deployment.run(1, ['schedule:run', at])])
  t.deepEqual(
    runs.map((run) => run.code),
    [0, 0],
  )
  const outputs = runs.map((run) => run.output)
  t.is(outputs.filter((output) => /Ran: kiln tok:prune-expired --hours=24/.test(output)).length, 1, outputs.join('\n'))
  t.is(outputs.filter((output) => /Skipped: kiln tok:prune-expired --hours=24 \(another server runs it this minute\)/.test(output)).length, 1)
})

test.serial('a reset mailed by one process links to APP_URL (the balancer), and the link works through the other', async (t) => {
  const visitor = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.15' })
  const forgot = await component(visitor, '/forgot-password')
  await call(visitor, forgot, [{ method: 'send' }], [['email', 'test@example.com']])
  const mail = await deployment.smtp.next()
  const link = /https?:\/\/[^\s()]+\/reset-password\/[^\s()]+/.exec(mimePart(mail.raw, 'text/plain'))?.[0] ?? ''
  t.true(link.startsWith(`${deployment.balancer.url}/reset-password/`), link)
  const reset = await component(visitor, link.slice(deployment.balancer.url.length))
  const saved = await call(
    visitor,
    reset,
    [{ method: 'save' }],
    [
      ['password', 'a-new-password'],
      ['password_confirmation', 'a-new-password'],
    ],
  )
  t.is(saved.json.effects.redirect, '/')
  t.is((await login(new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.16' }), 'test@example.com', 'a-new-password')).status, 200)
})

/** A 1×1 PNG: uploads are checked on their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

test.serial('an avatar: the upload asked of one process, sent to another, saved by a third request, and served by both', async (t) => {
  const sam = new HttpSession(deployment.balancer.url, { localAddress: '127.0.0.17' })
  t.is((await login(sam, 'sam@example.com')).status, 200)
  const before = new Map(deployment.balancer.served)
  const profile = await component(sam, '/profile')
  const asked = await call(sam, profile, [{ method: '$upload', params: ['photo', [{ name: 'me.png', type: 'image/png', size: PNG.length }]] }])
  const form = new FormData()
  form.append('files', new Blob([Uint8Array.from(PNG)], { type: 'image/png' }), 'me.png')
  const sent = await sam.send('POST', asked.json.effects.upload.url, { multipart: form, headers: { 'x-csrf-token': sam.cookie('XSRF-TOKEN') ?? '' } })
  t.is(sent.status, 200, sent.body)
  const [reference] = sent.json<{ references: string[] }>().references
  const chosen = await call(sam, asked.state, [], [['photo', reference]])
  const saved = await call(sam, chosen.state, [{ method: 'save' }])
  t.deepEqual(saved.json.effects.errors ?? {}, {})
  for (let i = 0; i < 2; i++) {
    const avatar = await sam.send('GET', '/profile/avatar')
    t.is(avatar.status, 200, avatar.body)
    t.is(avatar.headers['content-type'], 'image/png')
    t.deepEqual(avatar.bytes, PNG)
  }
  t.true(
    spread(before).every((count) => count >= 3),
    'every step alternated between the processes',
  )
})
