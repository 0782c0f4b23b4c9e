import { defineHttpConfig } from 'kiln-framework'

/**
 * HTTP: request bodies, compression, and what the server trusts of the
 * network in front of it. Every key has a default (docs/http.md).
 */
export default defineHttpConfig(() => ({}))
