import { defineRoutes, view } from 'kiln'

/** Browser routes: the `web` middleware group (encrypted cookies, session, CSRF). */
export default defineRoutes((Route) => {
  Route.get('/', () => view('home')).name('home')
})
