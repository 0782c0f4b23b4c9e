import { defineRoutes, view } from 'kiln'
import { SessionController } from '../app/controllers/session-controller.ts'

/** Browser routes: the `web` middleware group (encrypted cookies, session, CSRF). */
export default defineRoutes((Route) => {
  Route.get('/', () => view('home')).name('home')
  Route.get('/login', ({ session }) => view('login', { title: 'Log in', errors: session?.get('errors', {}), old: session?.get('old', {}) }))
    .middleware(['guest'])
    .name('login')
  Route.post('/login', [SessionController, 'store']).name('login.store')
  Route.post('/logout', [SessionController, 'destroy']).middleware(['auth']).name('logout')
})
