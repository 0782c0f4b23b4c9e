import { defineHttpConfig } from 'kiln-framework'

/**
 * HTTP: request bodies, compression, and what the server trusts of the
 * network in front of it. Every key has a default (docs/http.md).
 */
export default defineHttpConfig(() => ({
  // GET /up answers 200 once the app has booted; GET /up?ready also checks the database and Redis (503 naming what is down).
  health: '/up',
}))
