import test from 'ava'
import { createApp, redirect, Route, runWithApp, type RouteDefinition } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

declare module '../../../core/index.ts' {
  interface RouterMacros {
    /** A test macro: a GET route that redirects. */
    redirectTo(from: string, to: string): RouteDefinition
  }
}

test('a plugin adds a typed method to Route; it sees groups and returns the route for chaining', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  app.router.macro('redirectTo', function (from: string, to: string) {
    return this.get(from, () => redirect(to))
  })
  t.true(app.router.hasMacro('redirectTo'))
  t.false(app.router.hasMacro('get'))
  await runWithApp(app, () => {
    Route.group({ prefix: '/old', middleware: [] }, () => {
      Route.redirectTo('/home', '/new-home').name('old.home')
    })
  })
  const res = await app.request('/old/home')
  t.is(res.status, 302)
  t.is(res.headers.get('location'), '/new-home')
  t.is(app.router.path('old.home'), '/old/home')
})

test('a macro cannot replace a router method, a field, or take a polluting name; nor be defined twice', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  for (const name of ['get', 'group', 'macro', 'list', '__proto__', 'constructor', 'bad name']) {
    t.throws(() => app.router.macro(name, () => undefined), { message: /Cannot add a route macro named/ }, name)
  }
  app.router.macro('once', () => 1)
  t.throws(() => app.router.macro('once', () => 2), { message: /already has a member/ })
})

test('HEAD on a GET route answers with the headers and no body', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  app.router.get('/hello', ({ response }) => {
    response.headers.set('x-seen', '1')
    return { hello: 'world' }
  })
  const res = await app.request('/hello', { method: 'HEAD' })
  t.is(res.status, 200)
  t.is(res.headers.get('x-seen'), '1')
  t.regex(res.headers.get('content-type')!, /json/)
  t.is(await res.text(), '')
})
