import { defineRoutes } from 'kiln'

/** API routes: the stateless `api` middleware group, with no path prefix. */
export default defineRoutes((Route) => {
  Route.get('/health', () => ({ status: 'ok' })).name('health')
})
