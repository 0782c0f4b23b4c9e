import { defineRoutes } from 'kiln'
import { TokenController } from '../app/controllers/token-controller.ts'

/** API routes: the stateless `api` middleware group, with no path prefix. */
export default defineRoutes((Route) => {
  Route.get('/health', () => ({ status: 'ok' })).name('health')
  Route.post('/tok/token', [TokenController, 'issue']).name('tok.token')
  Route.get('/user', ({ request }) => request.user()).middleware(['auth:tok']).name('user')
})
