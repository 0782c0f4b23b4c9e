import { getPath, HttpException, type Application, KilnError } from '../../core/index.ts'
import type { TestClient } from '../../core/testing/index.ts'
import { ComponentManager } from './component-manager.ts'
import { signedEndpoint } from './protocol/keys.ts'
import type { ComponentClass } from './registry/registry.ts'
import type { Snapshot } from './protocol/snapshot.ts'
import type { UpdateResponse } from './protocol/update-response.ts'
import { ComponentAssertions, type TestDispatch } from './testing/assertions.ts'
import { readTestAnswer } from './testing/answer-readers.ts'
import { componentRoots, unescapeAttribute } from './testing/page-html.ts'
import { BUSY, IN_CHAIN, PendingComponentTest, SEND, type ChainTarget } from './testing/pending-test.ts'

export { PendingComponentTest } from './testing/pending-test.ts'
export type { ErrorExpectation, SeeText, TestDispatch } from './testing/assertions.ts'

/**
 * A component under test, driven the way the browser drives it: every
 * `set`, `call` and `dispatch` is a real `POST /comp/update` through the
 * test client (session, CSRF token, signed address, checksum), and the
 * answer's state, HTML, errors and dispatches are kept for assertions
 * (`assertSet`, `assertSee`, `assertHasErrors`…, from
 * {@link ComponentAssertions}).
 *
 * `set`, `call`, `dispatch` and `refresh` start a chain
 * ({@link PendingComponentTest}) to `await`; the assertions check at once
 * and return the test. An answer other than 200 does not throw: `status`
 * and `message` say what the server refused (`assertStatus(403)`), and the
 * state stays as it was.
 *
 * @example
 * ```ts
 * const counter = await testComponent(client, Counter, { start: 5 }).call('increment').assertSet('count', 6)
 * counter.assertSee('6')
 * t.is(counter.get('count'), 6)
 * ```
 */
export class ComponentTest extends ComponentAssertions implements ChainTarget {
  /** The HTML of the last render (the mount's, until an update renders again). */
  html: string
  /** The effects of the last successful update. */
  effects: UpdateResponse['effects'] | undefined
  /** The status of the last update (200 until one is sent). */
  status = 200
  /** The `message` of the last refused update. */
  message: string | undefined
  #running = 0
  #inChain = false

  private constructor(
    private readonly client: TestClient,
    private snapshot: Snapshot,
    private endpoint: string,
    html: string,
  ) {
    super()
    this.html = html
  }

  /**
   * A component of a page, as a visitor meets it: loads `path` with the
   * client (or a new client of the app) and picks the component named
   * `name` (else the page's first).
   *
   * @example
   * ```ts
   * const todos = await ComponentTest.visit(client, '/todos', 'todo-list').set('form.title', 'ab').call('add').assertHasErrors('form.title')
   * ```
   */
  static visit(client: TestClient | Application, path: string, name?: string): PendingComponentTest {
    return new PendingComponentTest(
      clientOf(client).then((made) => ComponentTest.#visit(made, path, name)),
      appOf(client),
    )
  }

  static async #visit(client: TestClient, path: string, name?: string): Promise<ComponentTest> {
    const res = await client.get(path, { accept: 'text/html' })
    const html = await res.text()
    if (res.status !== 200) throw new KilnError(`GET ${path} answered ${res.status}: ${html.slice(0, 300)}`, { code: 'E_COMP_TEST' })
    const roots = componentRoots(html)
    const root = name === undefined ? roots[0] : roots.find((found) => found.snapshot.fingerprint.name === name)
    if (!root)
      throw new KilnError(
        `GET ${path} has no component${name === undefined ? '' : ` named "${name}"`}; it has: ${roots.map((found) => found.snapshot.fingerprint.name).join(', ') || 'none'}.`,
        { code: 'E_COMP_TEST' },
      )
    const endpoint = /<meta name="comp-endpoint" content="([^"]+)">/.exec(html)?.[1]
    if (!endpoint) throw new KilnError(`GET ${path} has no @compScripts (no comp-endpoint meta), so its components cannot update.`, { code: 'E_COMP_TEST' })
    return new ComponentTest(client, root.snapshot, unescapeAttribute(endpoint), root.html)
  }

  /**
   * One component on its own, mounted with `params` in a request of the
   * client (so its session and `actingAs` user apply), or of a new client
   * of the app.
   *
   * @example
   * ```ts
   * const form = await ComponentTest.mount(client, 'todo-form')
   * ```
   */
  static mount(client: TestClient | Application, component: ComponentClass | string, params: Record<string, unknown> = {}): PendingComponentTest {
    return new PendingComponentTest(
      clientOf(client).then((made) => ComponentTest.#mount(made, component, params)),
      appOf(client),
    )
  }

  static async #mount(client: TestClient, component: ComponentClass | string, params: Record<string, unknown>): Promise<ComponentTest> {
    const app = client.app
    const manager = app.service('comp')
    const key = String(++mounts)
    pending.set(key, { component, params })
    try {
      ensureMountRoute(app, manager)
      const res = await client.get(`/comp/testing/${key}`, { accept: 'application/json' })
      const body = (await res.json()) as { html?: string; endpoint?: string; message?: string }
      if (res.status !== 200 || body.html === undefined || body.endpoint === undefined)
        throw new KilnError(`Mounting ${typeof component === 'string' ? component : component.name} answered ${res.status}: ${body.message ?? ''}`, {
          code: 'E_COMP_TEST',
        })
      return new ComponentTest(client, componentRoots(body.html)[0]!.snapshot, body.endpoint, body.html)
    } finally {
      pending.delete(key)
    }
  }

  /** The component's id. @example `counter.id` */
  get id(): string {
    return this.snapshot.fingerprint.id
  }

  /** The component's registered name. @example `counter.name // 'counter'` */
  get name(): string {
    return this.snapshot.fingerprint.name
  }

  /** The public state after the last update. @example `counter.data.count` */
  get data(): Record<string, unknown> {
    return this.snapshot.serverMemo.data
  }

  /** Validation messages by field after the last update. @example `form.errors.title` */
  get errors(): Record<string, string[]> {
    return (this.snapshot.serverMemo.errors ?? {}) as Record<string, string[]>
  }

  /** The events the last update dispatched. @example `form.dispatches[0]?.name` */
  get dispatches(): TestDispatch[] {
    return this.effects?.dispatches ?? []
  }

  /** Where the last update redirected, if it did. @example `form.redirect // '/todos'` */
  get redirect(): string | undefined {
    return this.effects?.redirect
  }

  /** A property's value (dotted paths reach into objects and lists). @example `form.get('address.city')` */
  get(path: string): unknown {
    this.checkIdle()
    return getPath(this.data, path)
  }

  /** Sets a property, as `wire:model` does, and renders. @example `await form.set('title', 'Buy milk')` */
  set(path: string, value: unknown): PendingComponentTest
  /** Sets several properties in one update. @example `await form.set({ title: 'Buy milk', done: false })` */
  set(values: Record<string, unknown>): PendingComponentTest
  set(path: string | Record<string, unknown>, value?: unknown): PendingComponentTest {
    return typeof path === 'string' ? this.#chain().set(path, value) : this.#chain().set(path)
  }

  /** Calls a method with parameters. @example `await counter.call('add', 5)` */
  call(method: string, ...params: unknown[]): PendingComponentTest {
    return this.#chain().call(method, ...params)
  }

  /** Delivers an event to the component's `@on` listeners. @example `await stats.dispatch('todo-added', { title: 'x' })` */
  dispatch(event: string, data: Record<string, unknown> = {}): PendingComponentTest {
    return this.#chain().dispatch(event, data)
  }

  /** Renders again with the current state. @example `await list.refresh()` */
  refresh(): PendingComponentTest {
    return this.#chain().refresh()
  }

  /** Sends one update (a step of a chain). @example `await test[SEND]({ updates: [['title', 'x']], calls: [] })` */
  async [SEND](body: { updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }> }): Promise<void> {
    const payload = { fingerprint: this.snapshot.fingerprint, serverMemo: this.snapshot.serverMemo, ...body, island: null }
    const res = await this.client.json('POST', this.endpoint, payload, { 'x-csrf-token': this.client.cookie('XSRF-TOKEN') ?? '' })
    const answer = (await res.json()) as UpdateResponse & { message?: string }
    this.status = res.status
    if (res.status !== 200) {
      this.message = answer.message
      return
    }
    this.message = undefined
    this.effects = answer.effects
    this.snapshot = { fingerprint: this.snapshot.fingerprint, serverMemo: answer.serverMemo }
    this.endpoint = answer.effects.endpoint
    if (answer.effects.html !== undefined) this.html = answer.effects.html
    await readTestAnswer(this, answer.effects, this.client)
  }

  /** Runs an assertion of a chain, whose own steps count as running. @example `test[IN_CHAIN](() => test.assertSee('1'))` */
  [IN_CHAIN](assert: () => unknown): void {
    this.#inChain = true
    try {
      assert()
    } finally {
      this.#inChain = false
    }
  }

  /** Counts a chain's steps in and out. @example `test[BUSY](1)` */
  [BUSY](delta: number): void {
    this.#running += delta
  }

  protected checkIdle(): void {
    if (this.#running > 0 && !this.#inChain)
      throw new KilnError(
        `The ${this.name} component under test still has a set or call running: await it before the next step (await ${this.name}.call(...)), or chain the steps. A forgotten await would let assertions pass unchecked.`,
        { code: 'E_COMP_TEST' },
      )
  }

  #chain(): PendingComponentTest {
    this.checkIdle()
    return new PendingComponentTest(this, this.client.app)
  }
}

/**
 * Mounts a component on its own for a test: a shorthand for
 * {@link ComponentTest.mount}, with a chain of steps and assertions to
 * `await`. Takes a test client (for its session and user) or the app.
 *
 * @example
 * ```ts
 * await testComponent(app, 'counter').set('count', 2).call('increment').assertSet('count', 3).assertSee('3')
 * ```
 */
export function testComponent(
  client: TestClient | Application,
  component: ComponentClass | string,
  params: Record<string, unknown> = {},
): PendingComponentTest {
  return ComponentTest.mount(client, component, params)
}

function appOf(target: TestClient | Application): Application {
  return 'cookie' in target && typeof target.cookie === 'function' ? target.app : (target as Application)
}

/** The client to drive the component with: the one given, or a new one of the app (loaded only then, as this module ships with the plugin). */
async function clientOf(target: TestClient | Application): Promise<TestClient> {
  if ('cookie' in target && typeof target.cookie === 'function') return target
  const { TestClient } = await import('../../core/testing/test-client.ts')
  return new TestClient(target as Application)
}

let mounts = 0
const pending = new Map<string, { component: ComponentClass | string; params: Record<string, unknown> }>()
const mountRoutes = new WeakSet<Application>()

/**
 * The route `ComponentTest.mount` renders through: added to an app the first
 * time a test mounts a component in it, never by the plugin itself, and it
 * only mounts what the test in this process asked for.
 */
function ensureMountRoute(app: Application, manager: ComponentManager): void {
  if (mountRoutes.has(app)) return
  mountRoutes.add(app)
  app.router
    .get('/comp/testing/{key}', async (ctx) => {
      const wanted = pending.get(ctx.params.key ?? '')
      if (!wanted) throw new HttpException(404, 'No component waits to be mounted under this key.')
      // The address is signed in this request, so it carries the client's session like a page's would.
      const endpoint = signedEndpoint(ctx.app.service('signer'), manager.config.endpoint, manager.config.signature_ttl_minutes, manager.binding.tag(ctx))
      return { html: (await manager.mount(wanted.component, wanted.params, { ctx })).html, endpoint }
    })
    .middleware(['web'])
}
