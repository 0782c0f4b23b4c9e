/**
 * P0: the kernel's cost. The same JSON from a Kiln `api` route (full
 * pipeline: router, global + api groups, context, response conversion) and
 * from a bare h3 app on srvx, both real listening servers in this process,
 * driven by a client process. Then the same JSON from a route in the `web`
 * group (encrypted cookies, the session, the CSRF check, the user) for a
 * returning browser: it sends the session and XSRF cookies of its first visit.
 * That line runs on the default fs store; the same route on the memory store
 * follows it (no goal of its own), so the store's read, one system call per
 * request, shows as the difference between the two.
 */
import { H3 } from 'h3'
import { serve } from 'srvx'
import { createApp } from '../core/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { compare, firstVisitCookies, report } from './measure.ts'

export async function kernelOverhead(): Promise<void> {
  const payload = { id: 1, name: 'Test User', email: 'test@example.com' }
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  app.router.group({ middleware: ['api'] }, () => {
    app.router.get('/bench', () => payload)
  })
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/web-bench', () => payload)
  })
  const kilnServer = await app.listen({ port: 0 })
  const memoryApp = await createApp({ root: tempApp(), env: { APP_ENV: 'test', SESSION_DRIVER: 'memory' } })
  memoryApp.router.group({ middleware: ['web'] }, () => {
    memoryApp.router.get('/web-bench', () => payload)
  })
  const memoryServer = await memoryApp.listen({ port: 0 })

  const bare = new H3().get('/bench', () => payload)
  const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1', silent: true })
  await bareServer.ready()
  const bareUrl = new URL(bareServer.url!)

  try {
    const { kiln, baseline, ratio } = await compare(`${kilnServer.url}/bench`, `http://127.0.0.1:${bareUrl.port}/bench`)
    report('P0 kernel: JSON route, Kiln vs bare h3', kiln, baseline, ratio, 0.9)

    const bareBench = `http://127.0.0.1:${bareUrl.port}/bench`
    const cookie = await firstVisitCookies(`${kilnServer.url}/web-bench`)
    const web = await compare(`${kilnServer.url}/web-bench`, bareBench, { kilnHeaders: { cookie } })
    report('P0 web group: the same JSON on a `web` route (cookies, session, CSRF), returning browser, vs bare h3', web.kiln, web.baseline, web.ratio, 0.65)

    const memoryCookie = await firstVisitCookies(`${memoryServer.url}/web-bench`)
    const memory = await compare(`${memoryServer.url}/web-bench`, bareBench, { kilnHeaders: { cookie: memoryCookie } })
    report('  the same `web` route with sessions on the memory store (no store read from disk), vs bare h3', memory.kiln, memory.baseline, memory.ratio)
  } finally {
    await bareServer.close(true)
    await app.close()
    await memoryApp.close()
  }
}
