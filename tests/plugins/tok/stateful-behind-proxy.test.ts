/**
 * The SPA's cookie authentication behind a proxy that does not pass the
 * browser's Host on (nginx's default): the request's host is the one the
 * trusted proxy forwarded for, so `currentRequestHost()` still names the
 * SPA's own site.
 */
import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { currentRequestHost, middleware, tok } from '../../../plugins/tok/index.ts'
import { startBalancer } from '../../fixtures/balancer.ts'
import { HttpSession } from '../../fixtures/http-session.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

for (const trusted of [true, false]) {
  test(`an SPA on the proxy's own host is stateful (session and CSRF) ${trusted ? 'when the proxy is trusted' : 'only from a trusted proxy: here it is not'}`, async (t) => {
    const app = await createApp({
      root: tempApp(),
      env: { APP_ENV: 'test' },
      plugins: [tok()],
      config: { tok: { stateful: [currentRequestHost()] }, http: { trusted_proxies: trusted ? ['127.0.0.1'] : [] } },
    })
    t.teardown(() => app.close())
    middleware.statefulApi(app)
    app.router.group({ middleware: ['api'] }, () => app.router.get('/api/stateful', (ctx) => ({ stateful: ctx.session !== undefined })))
    const server = await app.listen({ port: 0 })
    const balancer = await startBalancer(t, [server.port], { host: 'upstream' })
    const spa = new HttpSession(balancer.url)
    const answer = await spa.send('GET', '/api/stateful', { headers: { origin: balancer.url, referer: `${balancer.url}/` } })
    t.is(answer.status, 200, answer.body)
    t.deepEqual(answer.json(), { stateful: trusted })
  })
}
