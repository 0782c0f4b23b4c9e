import { defineRoutes, RateLimiter, view } from 'kiln'
import { credentials } from '../app/limiters.ts'
import { LiveController } from '../app/controllers/live-controller.ts'
import { SessionController } from '../app/controllers/session-controller.ts'

/** Browser routes: the `web` middleware group (encrypted cookies, session, CSRF). */
export default defineRoutes((Route) => {
  RateLimiter.for('credentials', credentials)

  Route.get('/', () => view('home')).name('home')
  Route.get('/login', ({ session }) => view('login', { title: 'Log in', errors: session?.get('errors', {}), old: session?.old() ?? {} }))
    .middleware(['guest'])
    .name('login')
  Route.post('/login', [SessionController, 'store']).middleware(['throttle:credentials']).name('login.store')
  Route.post('/logout', [SessionController, 'destroy']).middleware(['auth']).name('logout')

  // The live page: presence and messages over the realtime server (BROADCAST_CONNECTION=rt).
  Route.get('/live', [LiveController, 'show']).middleware(['auth']).name('live')
  Route.post('/live/messages', [LiveController, 'post']).middleware(['auth']).name('live.messages')
})
