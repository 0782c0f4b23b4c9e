import { defineRoutes } from 'kiln'

/** Browser routes: the `web` middleware group (encrypted cookies, session, CSRF). */
export default defineRoutes((Route) => {
  Route.get('/', () => `<!doctype html><title>Kiln</title><h1>Kiln is running</h1>`).name('home')
})
