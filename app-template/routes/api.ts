import { defineRoutes, RateLimiter } from 'kiln-framework'
import { middleware } from 'kiln-framework/tok'
import { TokenController } from '../app/controllers/token-controller.ts'
import { credentials } from '../app/limiters.ts'

/** API routes: the stateless `api` middleware group, with no path prefix. */
export default defineRoutes((Route) => {
  // Requests from the stateful domains (config/tok.ts) get the session and CSRF.
  middleware.statefulApi()
  Route.get('/health', () => ({ status: 'ok' })).name('health')
  RateLimiter.for('credentials', credentials)
  Route.post('/tok/token', [TokenController, 'issue']).middleware(['throttle:credentials']).name('tok.token')
  Route.get('/user', ({ request }) => request.user())
    .middleware(['auth:tok'])
    .name('user')
})
