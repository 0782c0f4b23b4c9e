import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp, currentApp, currentHttpContext, defer, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** A promise the test resolves by hand: a task that waits on it is "still running" until then. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

async function deferApp(t: { teardown(fn: () => unknown): void }): Promise<{ app: Application; root: string }> {
  const root = tempApp()
  const app = await createApp({
    root,
    env: { APP_ENV: 'test', SESSION_DRIVER: 'memory' },
    config: { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/kiln.log' } } },
  })
  t.teardown(() => app.close())
  return { app, root }
}

function logLines(root: string): Array<{ msg: string; err?: { message: string }; path?: string }> {
  return readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string })
}

test('ctx.defer: the client has its answer while the task still runs; tasks run in order, in the request context', async (t) => {
  const { app } = await deferApp(t)
  const held = gate()
  const events: string[] = []
  app.router.post('/invite', (ctx) => {
    ctx.defer(async () => {
      events.push(`first ${currentHttpContext()?.request.path} ${currentApp() === app}`)
      await held.opened
      events.push('first done')
    })
    defer(() => events.push('second'))
    events.push('handler')
    return { message: 'On its way.' }
  })
  const server = await app.listen({ port: 0 })

  const response = await fetch(`${server.url}/invite`, { method: 'POST', headers: { accept: 'application/json' } })
  t.is(response.status, 200)
  t.deepEqual(await response.json(), { message: 'On its way.' })
  t.false(events.includes('first done'), 'the answer came before the task finished')

  held.open()
  await app.service('http').deferred.settled()
  t.deepEqual(events, ['handler', 'first /invite true', 'first done', 'second'])
})

test('a failing task is logged once and never reaches the client; tasks of an error response run too', async (t) => {
  const { app, root } = await deferApp(t)
  let ran = 0
  app.router.get('/flaky', (ctx) => {
    ctx.defer(() => {
      throw new Error('SMTP is down')
    })
    ctx.defer(() => ran++)
    return 'ok'
  })
  app.router.get('/broken', (ctx) => {
    ctx.defer(() => ran++)
    throw new Error('the handler failed')
  })
  const client = new TestClient(app)
  const ok = await client.get('/flaky')
  t.is(ok.status, 200)
  t.is(await ok.text(), 'ok')
  t.is(ran, 1, 'a failure does not stop the tasks after it; the test client waited for both')
  t.is((await client.get('/broken', { accept: 'application/json' })).status, 500)
  t.is(ran, 2)

  await app.close()
  const failures = logLines(root).filter((line) => line.msg === 'A deferred task failed')
  t.is(failures.length, 1)
  t.is(failures[0]!.err?.message, 'SMTP is down')
  t.is(failures[0]!.path, '/flaky')
})

test('app.close() (kiln serve stopping) waits for a task still running, after the server stopped taking requests', async (t) => {
  const { app } = await deferApp(t)
  const held = gate()
  const started = gate()
  let finished = false
  app.router.post('/order', (ctx) => {
    ctx.defer(async () => {
      started.open()
      await held.opened
      finished = true
    })
    return { ok: true }
  })
  const server = await app.listen({ port: 0 })
  t.is((await fetch(`${server.url}/order`, { method: 'POST', headers: { accept: 'application/json' } })).status, 200)
  await started.opened

  let closed = false
  const closing = app.close().then(() => (closed = true))
  // Once the port refuses connections, the server part of closing is over: only the task holds it.
  for (;;) {
    const refused = await fetch(`${server.url}/order`, { method: 'POST' }).then(
      () => false,
      () => true,
    )
    if (refused) break
  }
  t.false(closed, 'close waits for the deferred task')
  t.false(finished)
  held.open()
  await closing
  t.true(finished)
})

test('defer() outside a request runs on the next turn and is awaited by settled()', async (t) => {
  const { app } = await deferApp(t)
  let ran = false
  runWithApp(app, () => defer(() => (ran = true)))
  t.false(ran, 'not within the calling code')
  await app.service('http').deferred.settled()
  t.true(ran)
})
