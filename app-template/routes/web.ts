import { defineRoutes, RateLimiter, view } from 'kiln-framework'
import { credentials } from '../app/limiters.ts'
import { LiveController } from '../app/controllers/live-controller.ts'
import { SessionController } from '../app/controllers/session-controller.ts'
import Counter from '../app/components/counter.ts'
import TodoList from '../app/components/todo-list.ts'
import TokenManager from '../app/components/token-manager.ts'
import Profile from '../app/components/profile.ts'
import { AvatarController } from '../app/controllers/avatar-controller.ts'

/** Browser routes: the `web` middleware group (encrypted cookies, session, CSRF). */
export default defineRoutes((Route) => {
  RateLimiter.for('credentials', credentials)

  Route.get('/', () => view('home')).name('home')
  Route.get('/login', () => view('login', { title: 'Log in' }))
    .middleware(['guest'])
    .name('login')
  Route.post('/login', [SessionController, 'store']).middleware(['throttle:credentials']).name('login.store')
  Route.post('/logout', [SessionController, 'destroy']).middleware(['auth']).name('logout')

  // Components: full pages served by Route.comp (the layout is layouts/app).
  Route.comp('/counter', Counter).name('counter')
  Route.comp('/todos', TodoList).middleware(['auth']).name('todos')
  Route.comp('/tokens', TokenManager).middleware(['auth']).name('tokens')
  Route.comp('/profile', Profile).middleware(['auth']).name('profile')
  Route.get('/profile/avatar', [AvatarController, 'show']).middleware(['auth']).name('profile.avatar')

  // The live page: presence and messages over the realtime server (BROADCAST_CONNECTION=rt).
  Route.get('/live', [LiveController, 'show']).middleware(['auth']).name('live')
  Route.post('/live/messages', [LiveController, 'post']).middleware(['auth']).name('live.messages')
})
