import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

test('a middleware that calls next() without awaiting it and returns nothing passes on that answer; the handler runs once', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  let calls = 0
  app.router
    .get('/once', () => {
      calls++
      return { calls }
    })
    .middleware([
      (_ctx, next) => {
        void next()
      },
    ])
  const response = await app.request('/once')
  t.is(response.status, 200)
  t.deepEqual(await response.json(), { calls: 1 })
  t.is(calls, 1)
})

test('middleware that return next() as it is and middleware that await it compose; an error renders at its depth, and the middleware around it sees that answer', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  app.router
    .get('/chain', () => 'ok')
    .middleware([
      (ctx, next) => {
        ctx.response.headers.set('x-outer', '1')
        return next()
      },
      async (_ctx, next) => {
        const response = await next()
        response.headers.set('x-inner', String(response.status))
        return response
      },
      (_ctx, next) => next(),
    ])
  app.router
    .get('/refused', () => 'never')
    .middleware([
      async (_ctx, next) => {
        const response = await next()
        response.headers.set('x-seen', String(response.status))
        return response
      },
      () => {
        throw Object.assign(new Error('no'), { status: 403 })
      },
    ])
  const chain = await app.request('/chain')
  t.is(await chain.text(), 'ok')
  t.is(chain.headers.get('x-outer'), '1')
  t.is(chain.headers.get('x-inner'), '200')
  const refused = await app.request('/refused', { headers: { accept: 'application/json' } })
  t.is(refused.headers.get('x-seen'), String(refused.status))
  t.not(refused.status, 200)
})

test('over a real server, an answer known at once goes out without waiting, but a middleware that changes it in a then() on next() still has its change sent', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  app.router.get('/plain', () => ({ ok: true })).middleware([(_ctx, next) => next()])
  app.router
    .get('/late', () => ({ ok: true }))
    .middleware([
      (_ctx, next) => {
        const downstream = next()
        void downstream.then((response) => response.headers.set('x-late', 'then'))
        return downstream
      },
    ])
  const server = await app.listen({ port: 0 })
  t.teardown(() => server.close())
  const plain = await fetch(`${server.url}/plain`)
  t.deepEqual(await plain.json(), { ok: true })
  const late = await fetch(`${server.url}/late`)
  t.is(late.headers.get('x-late'), 'then')
  t.deepEqual(await late.json(), { ok: true })
  const head = await fetch(`${server.url}/plain`, { method: 'HEAD' })
  t.is(head.status, 200)
  t.is(await head.text(), '')
})
