import type { Plugin } from './define-plugin.ts'
import { httpProvider } from '../http/http-provider.ts'
import { healthProvider } from '../health/health-provider.ts'
import { loggingProvider } from '../logging/logging-provider.ts'
import { sessionProvider } from '../session/session-provider.ts'
import { corsProvider } from '../cors/cors-provider.ts'
import { cliProvider } from '../cli/cli-provider.ts'
import { viewsProvider } from '../views/views-provider.ts'
import { storageProvider } from '../storage/storage-provider.ts'
import { databaseProvider } from '../database/database-provider.ts'
import { queueProvider } from '../queue/queue-provider.ts'
import { eventsProvider } from '../events/events-provider.ts'
import { authProvider } from '../auth/auth-provider.ts'
import { authorizationProvider } from '../authorization/authorization-provider.ts'
import { processStateProvider } from './process-state.ts'

/**
 * The kernel's own providers, in the order they register and boot, before any
 * plugin. Each is a plugin-shaped object living in its own core folder.
 */
// authProvider stays last: it appends to the `web` group after the session middleware.
export const kernelProviders: Plugin[] = [
  // First: every provider and plugin after it declares the state it keeps here.
  processStateProvider,
  loggingProvider,
  cliProvider,
  httpProvider,
  // Before the providers that add readiness checks (session, storage, database, queue).
  healthProvider,
  corsProvider,
  sessionProvider,
  viewsProvider,
  storageProvider,
  databaseProvider,
  queueProvider,
  eventsProvider,
  authProvider,
  authorizationProvider,
]
