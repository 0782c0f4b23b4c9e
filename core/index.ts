// First: loads the metadata polyfill before any decorated class is defined (and tsyringe, with require: see the module).
import { tsyringe } from './support/commonjs-packages.ts'

export { Application } from './application/application.ts'
export { createApp, type CreateAppOptions } from './application/create-app.ts'
export { DevPages, type DevPageHandler } from './dev/dev-pages.ts'
export { definePlugin, type Plugin, type PluginServices, type ServiceBinding } from './application/define-plugin.ts'
export { currentApp, maybeCurrentApp, runWithApp } from './application/current-app.ts'
export { appConfigSchema, type AppConfig } from './application/app-config.ts'
export { ProcessStates, storeScope, unsharedStateError, type ProcessState, type StateScope } from './application/process-state.ts'
export { defineConfig, configDefiner, type ConfigContext, type ConfigDefiner, type ConfigDefinition } from './config/define-config.ts'
export { defineEnv, type EnvDefinition, type EnvValues } from './config/env-schema.ts'
export type { KilnEnv } from './config/env.ts'
// Each config file's typed define…Config: tsc rejects a key the file does not have.
export { defineAppConfig } from './application/app-config.ts'
export { defineAuthConfig } from './auth/auth-config.ts'
export { defineCorsConfig } from './cors/cors-config.ts'
export { defineDatabaseConfig } from './database/database-config.ts'
export { defineEventsConfig } from './events/events-config.ts'
export { defineHttpConfig } from './http/http-config.ts'
export { defineLoggingConfig } from './logging/logging-config.ts'
export { defineQueueConfig } from './queue/queue-config.ts'
export { defineSessionConfig } from './session/session-config.ts'
export { defineStorageConfig } from './storage/storage-config.ts'
export { defineViewsConfig } from './views/views-config.ts'
export { ConfigRepository } from './config/config-repository.ts'
export { Env } from './config/env.ts'
export * from './container/tokens.ts'
export { DriverManager, type DriverContext, type DriverResolver, type DriverManagerOptions } from './manager/driver-manager.ts'
export { KilnError, ConfigError } from './support/errors.ts'
export { isPromiseLike } from './support/promise-like.ts'
export { appSlug } from './support/app-slug.ts'
export { getPath, FORBIDDEN_KEYS } from './support/dot-path.ts'
export type { KilnServices, ServiceName } from './application/kiln-services.ts'
export { importOptionalPackage, MissingPackageError, requirePackage, requireDriverPackages } from './support/optional-package.ts'
export type { RedisClient, PgPool, PgPoolClient, SqliteDatabase, SqliteStatement, PusherClient } from './support/optional-peer-types.ts'
// The kernel providers add their services to KilnServices (logger, db, router...) beside their own code: named here,
// as types only (nothing more loads), so the package's declaration files carry those additions to an app.
export type { cliProvider } from './cli/cli-provider.ts'
export type { databaseProvider } from './database/database-provider.ts'
export type { eventsProvider } from './events/events-provider.ts'
export type { httpProvider } from './http/http-provider.ts'
export type { healthProvider } from './health/health-provider.ts'
export type { loggingProvider } from './logging/logging-provider.ts'
export type { queueProvider } from './queue/queue-provider.ts'
export type { sessionProvider } from './session/session-provider.ts'
export type { storageProvider } from './storage/storage-provider.ts'
export type { viewsProvider } from './views/views-provider.ts'
export { HealthChecks, CHECK_TIMEOUT_MS, type HealthCheck, type ReadinessReport } from './health/health-checks.ts'
export { ServiceUnavailableError, failFastRedisOptions, watchRedis, redisReady, redisTarget, redisUrl, type RedisHealth } from './support/redis-health.ts'
export { defineCommand, CommandError, type CommandDefinition, type CommandContext } from './cli/define-command.ts'
export { AuthorizationGate, AuthorizationError, type AbilityCallback, type AbilityOptions, type GateUser, type PolicyClass } from './authorization/gate.ts'
export { Gate } from './authorization/authorization-provider.ts'
export { defineSchedule, Schedule, ScheduledTask, type ScheduleDefinition } from './schedule/schedule.ts'
export { CommandRegistry } from './cli/command-registry.ts'
export { AppChecks, formatProblem, type AppCheck, type CheckProblem } from './cli/app-checks.ts'
export { nearest } from './cli/suggest.ts'
export { generateAppKey, parseAppKey } from './security/app-key.ts'
/**
 * tsyringe's decorators, from the copy Kiln's container uses: `@injectable()`
 * on a class the container builds, `@inject(TOKEN)` on each constructor
 * parameter it fills, `@singleton()` for one instance per container.
 *
 * @example
 * ```ts
 * @injectable()
 * class Invoices {
 *   constructor(@inject(CONFIG) private readonly config: ConfigRepository) {}
 * }
 * ```
 */
export const { inject, injectable, singleton } = tsyringe
export { Router, type GroupOptions, type WebSocketRoute, type RouteMacro, type RouterMacros } from './http/routing/router.ts'
export { RouteDefinition, type RouteHandler, type HandlerFunction } from './http/routing/route-definition.ts'
export { Route, route, url } from './http/routing/route-facade.ts'
export { defineRoutes, type RouteFile } from './http/routing/load-route-files.ts'
export { HttpContext, currentHttpContext, runWithContext, type HttpContextExtensions } from './http/pipeline/http-context.ts'
export { defer, DeferredTasks, type DeferredTask } from './http/pipeline/deferred-tasks.ts'
export { KilnRequest } from './http/body/kiln-request.ts'
export { TrustedProxies, plainAddress, trustedProxyProblem } from './http/proxy/trusted-proxies.ts'
export { resolveForwarded, forwardedUrl, type ForwardedRequest, type HeaderReader } from './http/proxy/resolve-forwarded.ts'
export { CookieJar, type CookieOptions, type CookieCodec, serializeCookie, parseCookieHeader } from './http/body/cookie-jar.ts'
export { HttpException, ValidationException, abort } from './http/errors/http-exception.ts'
export { errorCode, renderError, type RenderErrorOptions } from './http/errors/error-renderer.ts'
export { renderDebugPage } from './http/errors/debug-error-page.ts'
export { escapeHtml } from './support/escape-html.ts'
export { defineMiddleware, middlewareNow, type Middleware, type MiddlewareRef, type Next, type NextNow } from './http/pipeline/middleware.ts'
export { logAfter, logStatus } from './http/pipeline/request-log.ts'
export { MiddlewareRegistry, type AliasOptions } from './http/pipeline/middleware-registry.ts'
export { json, redirect, noContent, type Responsable } from './http/responses/to-response.ts'
export { UrlGenerator } from './http/routing/url-generator.ts'
export { StaticAssets, type AssetOptions } from './http/assets/static-assets.ts'
export { knownBody, uncompressed } from './http/compression/known-body.ts'
export { HttpKernel } from './http/pipeline/http-kernel.ts'
// `export type`: an `export { type ... }` of types only still loads the module (and srvx's server and crossws with it).
export type { ListenOptions, RunningServer } from './http/serve.ts'
export { AuthManager } from './auth/auth-manager.ts'
export { RequestAuth } from './auth/request-auth.ts'
export { Authenticatable } from './auth/authenticatable.ts'
export { hashPassword, verifyPassword, verifyNothing, needsRehash, Hash } from './auth/password-hasher.ts'
export { authenticate, guest } from './auth/auth-middleware.ts'
export { providerFor } from './auth/auth-provider.ts'
export { SessionGuard } from './auth/session-guard.ts'
export { RememberTokens, parseRememberCookie, passwordFingerprint, type RememberOptions } from './auth/remember-tokens.ts'
export { ModelUserProvider } from './auth/model-user-provider.ts'
export type { AuthUser, Guard, LoginOptions, UserProvider } from './auth/contracts.ts'
export { createLogger, type Logger } from './logging/create-logger.ts'
export { Encrypter } from './security/encrypter.ts'
export { safeEqual, hmacHex } from './security/safe-compare.ts'
export { Session, randomId } from './session/session.ts'
export { sessionConfigSchema, type SessionConfig } from './session/session-config.ts'
export { collectSessionGarbage, sweepExpiredSessions } from './session/session-gc.ts'
export { encryptCookies, startSession, sessionStore } from './session/session-middleware.ts'
export { verifyCsrfToken, csrfToken, csrfField, addXsrfCookie } from './session/verify-csrf-token.ts'
export { UrlSigner, validateSignature, signedRoute, signUrl, type SignOptions } from './security/url-signer.ts'
export { handleCors, originAllowed } from './cors/handle-cors.ts'
export { corsConfigSchema, type CorsConfig } from './cors/cors-config.ts'
export { runCli, type CliIo } from './cli/main.ts'
export { Publisher, type PublishEntry } from './cli/publisher.ts'
export { ViewManager, type ViewComposer } from './views/view-manager.ts'
export { view, renderView, ViewResponse } from './views/view-response.ts'
export { HandlebarsEngine } from './views/handlebars-engine.ts'
export { withAsyncHelpers } from './views/async-helpers.ts'
export type { ViewEngine, Preprocessor, ViewHelper, RenderOptions } from './views/view-engine.ts'
export { StorageManager, Storage } from './storage/storage-manager.ts'
export { lazyStorage, registerUnstorageDrivers } from './storage/unstorage-drivers.ts'
export {
  Lock,
  LockTimeoutError,
  lockScope,
  memoryLocks,
  storeLock,
  withLocks,
  type LockOptions,
  type LockScope,
  type StoreLocks,
} from './storage/store-lock.ts'
export { MassAssignmentError, Model, ModelNotFoundError, modelByMorphName, type KeyType, type ModelClass } from './database/model/model.ts'
export { defineFactory, FactoryBuilder, type FactoryContext, type FactoryDefinition, type FactoryState } from './database/factory/factory.ts'
export { fake, type Fake } from './database/factory/fake.ts'
export { ModelQuery, type Paginated } from './database/model/model-query.ts'
export { discoverModels } from './database/model/discover-models.ts'
export {
  onAnyModelEvent,
  onAnyQueryWrite,
  type ModelEventName,
  type ModelListener,
  type ModelObserver,
  type QueryWrite,
} from './database/model/model-events.ts'
export { compiledRead, compiledReadNow, compiledRowNow, parameter, type ReadBuilder } from './database/compiled-read.ts'
export { keyFits } from './database/model/find-by-key.ts'
export type { Cast } from './database/model/casts.ts'
export { DatabaseManager } from './database/database-manager.ts'
export { afterCommit, inTransaction } from './database/transaction-context.ts'
export { Migrator, registerMigrations, type Migration, type MigrationStatus } from './database/migrator.ts'
export type { Connection, Dialect } from './database/connection.ts'
export { increments, isSqlite } from './database/schema-helpers.ts'
export { DatabaseBusyError } from './database/sqlite-busy.ts'
export { DatabaseUnavailableError } from './database/pg-health.ts'
export { MissingTableError, NotNullViolationError } from './database/query-errors.ts'
export { Event, event, type EventClass, type EventKey, type Listener } from './events/event.ts'
export { EventDispatcher, type DispatchHook } from './events/event-dispatcher.ts'
export { EventFake } from './events/event-fake.ts'
export { CallQueuedListener } from './events/call-queued-listener.ts'
export { Job, type JobClass } from './queue/job.ts'
export { PendingDispatch } from './queue/pending-dispatch.ts'
export { QueueManager, Queue } from './queue/queue-manager.ts'
export { QueueFake, type PushedJob } from './queue/queue-fake.ts'
export { serializeJob, deserializeJob, type JobPayload } from './queue/payload.ts'
export { JobRegistry, UnknownJobError, jobName } from './queue/job-registry.ts'
export type { QueueDriver, PushOptions } from './queue/queue-driver.ts'
export type { FailedJob } from './queue/run-job.ts'
export { RedisQueue } from './queue/redis-driver.ts'
export { throttle } from './http/pipeline/throttle.ts'
export { RateLimiter, RateLimiters, Limit, type LimitDefinition, type AttemptResult } from './http/pipeline/rate-limiter.ts'
