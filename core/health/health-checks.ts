import { FORBIDDEN_KEYS } from '../support/dot-path.ts'
import { KilnError } from '../support/errors.ts'
import { RedisPings } from './redis-pings.ts'

/** One readiness check: resolves (any value) when the service answers, throws or rejects when it does not. */
export type HealthCheck = () => unknown

/** What a readiness run found: each check's name with `ok` or `down`. */
export interface ReadinessReport {
  ready: boolean
  checks: Record<string, 'ok' | 'down'>
}

/** The least a logger must do for {@link HealthChecks}. */
interface CheckLogger {
  warn(context: Record<string, unknown>, message: string): void
  info(context: Record<string, unknown>, message: string): void
}

/**
 * A check that has not answered after this long is down: the kernel's own
 * checks fail faster (their clients' timeouts), this bounds a plugin's.
 */
export const CHECK_TIMEOUT_MS = 5_000

/**
 * The readiness checks of an application (`app.service('health')`): the
 * services it cannot serve without, by name. The kernel's providers fill it
 * from the configuration (the default database connection, the session
 * store, every Redis store of `config/storage.ts`, the queue), and plugins
 * and drivers add their own, so the readiness answer (`GET /up?ready`)
 * names whatever is down. Checks run in parallel, each bounded by
 * {@link CHECK_TIMEOUT_MS}; probes that arrive while a run is in flight
 * share it, so a burst of probes costs one round of pings. A check going
 * down is logged once (a warning with its error), and coming back once.
 *
 * @example
 * ```ts
 * // in a plugin's register(app)
 * app.service('health').redis('reports', app.env.get('REPORTS_REDIS_URL', 'redis://127.0.0.1:6379'))
 * app.service('health').register('payments', () => paymentsClient.ping())
 * const { ready, checks } = await app.service('health').run()
 * ```
 */
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>()
  private readonly down = new Set<string>()
  private readonly pings: RedisPings
  private running?: Promise<ReadinessReport>

  constructor(
    private readonly logger: CheckLogger,
    root: string,
  ) {
    this.pings = new RedisPings(root)
  }

  /**
   * Adds a check (or replaces the one of that name, so an app can change a
   * kernel check). Names are letters, digits, `.`, `_`, `:` and `-`; they
   * appear in the readiness answer, so never put an address or a secret in
   * one.
   *
   * @example
   * ```ts
   * health.register('search', async () => { await fetch('http://search:9200/_cluster/health') })
   * ```
   */
  register(name: string, check: HealthCheck): this {
    if (!/^[A-Za-z][\w.:-]*$/.test(name) || FORBIDDEN_KEYS.has(name))
      throw new KilnError(`"${name}" is not a valid health check name: use letters, digits, ".", "_", ":" and "-".`, { code: 'E_HEALTH_CHECK' })
    if (typeof check !== 'function') throw new KilnError(`The health check "${name}" must be a function.`, { code: 'E_HEALTH_CHECK' })
    this.checks.set(name, check)
    return this
  }

  /**
   * Adds a check that pings a Redis server: on a client of the registry's
   * own that fails fast (no offline queue, `timeoutMs` to connect and to
   * answer), one per address, connected at the first readiness probe.
   * The URL stays in this process: the answer has only the name.
   *
   * @example
   * ```ts
   * health.redis('broadcasting.kv', 'redis://:secret@cache:6379/0', { timeoutMs: 1000 })
   * ```
   */
  redis(name: string, url: string, options: { timeoutMs?: number } = {}): this {
    const timeoutMs = options.timeoutMs ?? 1000
    return this.register(name, () => this.pings.ping(url, timeoutMs))
  }

  /** Removes a check. @example `health.forget('storage.cache')` */
  forget(name: string): this {
    this.checks.delete(name)
    this.down.delete(name)
    return this
  }

  /** The names of the checks, in the order they were added. @example `health.names() // ['session', 'database.pgsql']` */
  names(): string[] {
    return [...this.checks.keys()]
  }

  /**
   * Runs every check in parallel; probes that arrive meanwhile get the same
   * answer.
   *
   * @example
   * ```ts
   * const { ready, checks } = await health.run() // { ready: false, checks: { 'database.pgsql': 'ok', session: 'down' } }
   * ```
   */
  run(): Promise<ReadinessReport> {
    this.running ??= this.runAll().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  /** Closes the Redis clients of the checks (the app's `terminating`). @example `await health.close()` */
  close(): Promise<void> {
    return this.pings.close()
  }

  private async runAll(): Promise<ReadinessReport> {
    const entries = [...this.checks]
    const results = await Promise.all(entries.map(([name, check]) => this.runOne(name, check)))
    const checks: Record<string, 'ok' | 'down'> = {}
    entries.forEach(([name], i) => (checks[name] = results[i]!))
    return { ready: results.every((result) => result === 'ok'), checks }
  }

  private async runOne(name: string, check: HealthCheck): Promise<'ok' | 'down'> {
    let timer: NodeJS.Timeout | undefined
    try {
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)
      })
      await Promise.race([Promise.resolve().then(check), timeout])
      if (this.down.delete(name)) this.logger.info({ check: name }, 'Readiness check is up again')
      return 'ok'
    } catch (error) {
      if (!this.down.has(name)) {
        this.down.add(name)
        // The error's message names the cause (ECONNREFUSED, a timeout); clients never put credentials in theirs.
        this.logger.warn({ check: name, err: error instanceof Error ? error.message : String(error) }, 'Readiness check is down')
      }
      return 'down'
    } finally {
      clearTimeout(timer)
    }
  }
}
