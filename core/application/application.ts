import type { DependencyContainer, InjectionToken } from 'tsyringe'
import { tsyringe } from '../support/commonjs-packages.ts'
import type { ConfigRepository } from '../config/config-repository.ts'
import type { Env } from '../config/env.ts'
import type { DevPages } from '../dev/dev-pages.ts'
import { APP, CONFIG, ENV, serviceToken } from '../container/tokens.ts'
import { KilnError } from '../support/errors.ts'
import { runWithApp, setLastBootedApp } from './current-app.ts'
import { registerPlugin, type Plugin } from './define-plugin.ts'
import type { KilnServices, ServiceName } from './kiln-services.ts'

type Hook = (app: Application) => void | Promise<void>

/**
 * One Kiln application: its environment, configuration, container and the
 * registries that plugins fill. Make one with `createApp({ root })`.
 *
 * Registries and services are attached by the kernel's own providers and by
 * plugins, and are reachable both as properties (`app.router`) and from the
 * container (`app.make(ROUTER)`).
 *
 * @example
 * ```ts
 * const app = await createApp({ root: process.cwd() })
 * const res = await app.request('/health')
 * await app.close()
 * ```
 */
export class Application {
  /** This application's own tsyringe container, a child of the global one. */
  readonly container: DependencyContainer
  private readonly bootingHooks: Hook[] = []
  private readonly bootedHooks: Hook[] = []
  private readonly terminatingHooks: Hook[] = []
  private state: 'created' | 'registered' | 'booted' | 'closed' = 'created'
  /** Services that kernel providers and plugins attach by name. */
  private readonly services = new Map<string, unknown>()
  /** Named services bound with `singleton`, built on first use. */
  private readonly lazyServices = new Map<string, () => unknown>()

  constructor(
    readonly root: string,
    readonly env: Env,
    readonly config: ConfigRepository,
    readonly plugins: readonly Plugin[],
    /** The pages `kiln dev` serves beside the app (`/_kiln/<name>`); undefined outside `kiln dev`. */
    readonly dev?: DevPages,
  ) {
    this.container = tsyringe.container.createChildContainer()
    this.container.registerInstance(APP, this)
    this.container.registerInstance(CONFIG, config)
    this.container.registerInstance(ENV, env)
  }

  /** `production`, `development` or `test`. @example `if (app.environment === 'test') ...` */
  get environment(): 'production' | 'development' | 'test' {
    return this.config.get('app.env', 'production')
  }

  /** True when `APP_DEBUG` is on: error pages show stacks. @example `app.debug` */
  get debug(): boolean {
    return this.config.get('app.debug', false)
  }

  /** The app's logger (pino). @example `app.logger.info({ order: 1 }, 'Shipped')` */
  get logger(): KilnServices['logger'] {
    return this.service('logger')
  }

  /** Views: engines, helpers, preprocessors. @example `app.views.helper('upper', (s) => s.toUpperCase())` */
  get views(): KilnServices['views'] {
    return this.service('views')
  }

  /** The routes. @example `app.router.get('/ping', () => 'pong')` */
  get router(): KilnServices['router'] {
    return this.service('router')
  }

  /** Middleware aliases and groups. @example `app.middleware.alias('admin', admin)` */
  get middleware(): KilnServices['middleware'] {
    return this.service('middleware')
  }

  /** Browser URLs with `APP_BASE_PATH`. @example `app.urls.route('home')` */
  get urls(): KilnServices['url'] {
    return this.service('url')
  }

  /** Static files: built bundles, vendor folders, `public/`. @example `app.assets.file('/app.js', 'dist/app.js')` */
  get assets(): KilnServices['assets'] {
    return this.service('assets')
  }

  /**
   * Serves a request in-process, with no network: the quickest way to test.
   *
   * @example
   * ```ts
   * const res = await app.request('/user', { headers: { authorization: `Bearer ${token}` } })
   * ```
   */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return this.service('http').request(input, init)
  }

  /** Serves a web `Request` (for servers and adapters). @example `srvx.serve({ fetch: app.fetch })` */
  fetch = (request: Request): Promise<Response> => this.service('http').fetch(request)

  /** The CLI commands that the kernel and plugins register. @example `app.commands.register(myCommand)` */
  get commands(): KilnServices['commands'] {
    return this.service('commands')
  }

  /**
   * Listens on a real port (HTTP and websocket routes). Closed with the app.
   *
   * @example
   * ```ts
   * const server = await app.listen({ port: 3000 })
   * console.log(server.url)
   * ```
   */
  async listen(options: Parameters<KilnServices['server']['listen']>[0] = {}): ReturnType<KilnServices['server']['listen']> {
    const server = await this.service('server').listen(options)
    this.terminating(() => server.close())
    return server
  }

  /** True once every plugin has booted. @example `app.isBooted` */
  get isBooted(): boolean {
    return this.state === 'booted'
  }

  /**
   * Resolves a named service (typed by `KilnServices`), or anything else
   * from this application's container by its token.
   *
   * @example
   * ```ts
   * const router = app.make('router')            // a Router, no type argument
   * const config = app.make<ConfigRepository>(CONFIG)
   * ```
   */
  make<K extends ServiceName>(name: K): KilnServices[K]
  make<T>(token: InjectionToken<T>): T
  make(token: InjectionToken<unknown>): unknown {
    if (typeof token === 'string' && (this.services.has(token) || this.lazyServices.has(token))) return this.service(token as ServiceName)
    return this.container.resolve(token)
  }

  /**
   * Binds `value` as the service `name`: `app.service(name)`, and in the
   * container under `serviceToken(name)` and `token` (usually its class).
   * The name is a key of `KilnServices` and the value its type; a plugin
   * usually lists its services in `services` instead.
   *
   * @example
   * ```ts
   * app.instance('mailer', new Mailer(), Mailer)
   * ```
   */
  instance<K extends ServiceName>(name: K, value: KilnServices[K], token?: InjectionToken<KilnServices[K]>): KilnServices[K] {
    this.services.set(name, value)
    this.container.registerInstance(serviceToken(name), value)
    if (token !== undefined) this.container.registerInstance(token, value)
    return value
  }

  /**
   * Binds the service `name` lazily: `factory` runs on its first use, by
   * name or from the container (`serviceToken(name)`, and `token`).
   *
   * @example
   * ```ts
   * app.singleton('reports', (app) => new Reports(app.config))
   * ```
   */
  singleton<K extends ServiceName>(name: K, factory: (app: Application) => KilnServices[K], token?: InjectionToken<KilnServices[K]>): void {
    let instance: KilnServices[K] | undefined
    let built = false
    const build = (): KilnServices[K] => {
      if (!built) {
        instance = factory(this)
        built = true
      }
      return instance as KilnServices[K]
    }
    this.lazyServices.set(name, build)
    this.container.register(serviceToken(name), { useFactory: build })
    if (token !== undefined) this.container.register(token, { useFactory: build })
  }

  /**
   * A named service attached by a provider or plugin (`router`, `views`,
   * `db`...), typed by `KilnServices`: a plugin declares its own entries.
   *
   * @example
   * ```ts
   * const views = app.service('views') // a ViewManager
   * ```
   */
  service<K extends ServiceName>(name: K): KilnServices[K] {
    if (this.services.has(name)) return this.services.get(name) as KilnServices[K]
    const build = this.lazyServices.get(name)
    if (!build) throw new KilnError(`The "${name}" service is not available.`, { hint: 'Is the plugin that provides it listed in config/app.ts?' })
    const value = build()
    this.services.set(name, value)
    return value as KilnServices[K]
  }

  /** True when a named service is bound. @example `app.hasService('db')` */
  hasService(name: ServiceName): boolean {
    return this.services.has(name) || this.lazyServices.has(name)
  }

  /** Runs `fn` before plugins boot, after all have registered. @example `app.booting(() => ...)` */
  booting(fn: Hook): void {
    this.bootingHooks.push(fn)
  }

  /** Runs `fn` after every plugin has booted (or now, if already booted). @example `app.booted(() => ...)` */
  booted(fn: Hook): void {
    if (this.state === 'booted') void fn(this)
    else this.bootedHooks.push(fn)
  }

  /**
   * Runs `fn` when the application closes, in reverse order of registration:
   * close connections and servers here.
   *
   * @example
   * ```ts
   * app.terminating(() => redis.quit())
   * ```
   */
  terminating(fn: Hook): void {
    this.terminatingHooks.push(fn)
  }

  /** Runs registration for every plugin. Called by `createApp`. @example `await app.register(kernelProviders)` */
  async register(kernel: readonly Plugin[]): Promise<void> {
    if (this.state !== 'created') return
    await runWithApp(this, async () => {
      for (const plugin of [...kernel, ...this.plugins]) {
        if (plugin.config) this.config.define(plugin.config.file, plugin.config.schema)
      }
      this.config.checkFileNames()
      for (const plugin of [...kernel, ...this.plugins]) await registerPlugin(this, plugin)
    })
    this.state = 'registered'
  }

  /** Boots every plugin, then runs `booted` hooks. Called by `createApp`. @example `await app.boot(kernelProviders)` */
  async boot(kernel: readonly Plugin[]): Promise<void> {
    if (this.state !== 'registered') return
    await runWithApp(this, async () => {
      for (const hook of this.bootingHooks) await hook(this)
      for (const plugin of [...kernel, ...this.plugins]) await plugin.boot?.(this)
      this.state = 'booted'
      for (const hook of this.bootedHooks) await hook(this)
    })
    setLastBootedApp(this)
  }

  /**
   * Closes the application: runs `terminating` hooks (servers, connections,
   * queues) in reverse order. Safe to call twice. Every hook runs even when
   * one fails; then a single failure is thrown as it is (its `code` intact, so
   * a test's teardown shows it), several together as an `AggregateError`.
   *
   * @example
   * ```ts
   * process.on('SIGTERM', () => app.close())
   * ```
   */
  async close(): Promise<void> {
    if (this.state === 'closed') return
    this.state = 'closed'
    const errors: unknown[] = []
    for (const hook of [...this.terminatingHooks].reverse()) {
      try {
        await hook(this)
      } catch (error) {
        errors.push(error)
      }
    }
    this.container.clearInstances()
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, 'Some terminating hooks failed while closing the application.')
  }
}
