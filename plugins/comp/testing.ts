import { getPath, type Application, KilnError } from '../../core/index.ts'
import type { TestClient } from '../../core/testing/index.ts'
import type { ComponentClass } from './registry/registry.ts'
import type { Snapshot } from './protocol/snapshot.ts'
import type { UpdateResponse } from './protocol/update-response.ts'
import { ComponentAssertions, type TestDispatch } from './testing/assertions.ts'
import { appOf, clientOf, componentOfPage, mountThroughRoute } from './testing/mount-route.ts'
import { componentRoots } from './testing/page-html.ts'
import { observationsOf, observeComponents } from './testing/observed.ts'
import { BUSY, IN_CHAIN, PendingComponentTest, SEND, type ChainTarget } from './testing/pending-test.ts'
import { prepareTestValue, type TestValueContext } from './testing/test-values.ts'
import { addCookies, ComponentTestSetup, queryString, type MountSetup, type QueryValue } from './testing/test-setup.ts'

export { PendingComponentTest } from './testing/pending-test.ts'
export type { ErrorExpectation, SeeText, TestDispatch } from './testing/assertions.ts'
export { ComponentTestSetup, type QueryValue } from './testing/test-setup.ts'

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
  /** A refusal the browser shows without the server (an upload's), until the next update. */
  #browserErrors: Record<string, string[]> = {}

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
    observeComponents(client.app)
    const { snapshot, endpoint, html } = await componentOfPage(client, path, name)
    return new ComponentTest(client, snapshot, endpoint, html)
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
    return ComponentTest.#mountWith(client, component, params, { query: {}, cookies: {} })
  }

  /**
   * A query string for the mount's request, read by `@url()` properties, as
   * Livewire's `Livewire::withQueryParams([...])->test(...)`; `withCookies`
   * may follow, and `test()` mounts.
   *
   * @example
   * ```ts
   * const search = await ComponentTest.withQueryParams({ q: 'milk' }).test(app, 'search')
   * ```
   */
  static withQueryParams(params: Record<string, QueryValue>): ComponentTestSetup<PendingComponentTest> {
    return new ComponentTestSetup(ComponentTest.#mountWith).withQueryParams(params)
  }

  /**
   * Cookies for the client, sealed as the app seals its own, read in
   * `mount()` as `this.ctx.cookies.get(name)`; as Livewire's
   * `Livewire::withCookies([...])->test(...)`.
   *
   * @example
   * ```ts
   * const theme = await ComponentTest.withCookies({ theme: 'dark' }).test(app, 'theme-switch')
   * ```
   */
  static withCookies(cookies: Record<string, string>): ComponentTestSetup<PendingComponentTest> {
    return new ComponentTestSetup(ComponentTest.#mountWith).withCookies(cookies)
  }

  static #mountWith(
    client: TestClient | Application,
    component: ComponentClass | string,
    params: Record<string, unknown>,
    setup: MountSetup,
  ): PendingComponentTest {
    return new PendingComponentTest(
      clientOf(client).then((made) => ComponentTest.#mount(made, component, params, setup)),
      appOf(client),
    )
  }

  static async #mount(client: TestClient, component: ComponentClass | string, params: Record<string, unknown>, setup: MountSetup): Promise<ComponentTest> {
    observeComponents(client.app)
    addCookies(client, setup.cookies)
    const { status, body } = await mountThroughRoute(client, component, params, queryString(setup.query))
    if (status !== 200 || body.html === undefined || body.endpoint === undefined)
      throw new KilnError(`Mounting ${typeof component === 'string' ? component : component.name} answered ${status}: ${body.message ?? ''}`, {
        code: 'E_COMP_TEST',
      })
    return new ComponentTest(client, componentRoots(body.html)[0]!.snapshot, body.endpoint, body.html)
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

  /** Validation messages by field after the last update (with an upload's refusal, as the browser's `$errors` shows it). @example `form.errors.title` */
  get errors(): Record<string, string[]> {
    return { ...((this.snapshot.serverMemo.errors ?? {}) as Record<string, string[]>), ...this.#browserErrors }
  }

  /** The events the last update dispatched. @example `form.dispatches[0]?.name` */
  get dispatches(): TestDispatch[] {
    return this.effects?.dispatches ?? []
  }

  /** The app the component runs in. @example `counter.app.service('db')` */
  get app(): Application {
    return this.client.app
  }

  /** The components rendered inside this one, by name and id (from the snapshot: a child kept from an earlier render too). @example `page.children[0]?.name` */
  get children(): Array<{ id: string; name: string }> {
    return Object.values(this.snapshot.serverMemo.children ?? {}).map(({ id, name }) => ({ id, name }))
  }

  /**
   * What the component reported in this test's requests, oldest first: `view`
   * (the data each render saw), `rules` (the rules that failed, by field and
   * message). Read by assertions (`assertViewHas`).
   *
   * @example `counter.observations('view').at(-1)`
   */
  observations(kind: string): readonly unknown[] {
    return observationsOf(this.client.app, this.id, kind)
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

  /** Sends one update (a step of a chain); a test value set (a fake upload) gets ready first, as the browser readies it. @example `await test[SEND]({ updates: [['title', 'x']], calls: [] })` */
  async [SEND](body: { updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }> }): Promise<void> {
    const updates: Array<[string, unknown]> = []
    for (const [path, value] of body.updates) {
      const ready = await prepareTestValue(this.#valueContext(path), value)
      if (ready) updates.push([path, ready.value])
    }
    // Every value was refused before sending (a file the rules refuse): nothing to send, as in the browser.
    if (updates.length === 0 && body.updates.length > 0 && body.calls.length === 0) return
    await this.#send({ updates, calls: body.calls })
  }

  async #send(body: { updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }>; renderless?: boolean }): Promise<void> {
    const payload = { fingerprint: this.snapshot.fingerprint, serverMemo: this.snapshot.serverMemo, ...body, island: null }
    const res = await this.client.json('POST', this.endpoint, payload, { 'x-csrf-token': this.client.cookie('XSRF-TOKEN') ?? '' })
    const answer = (await res.json()) as UpdateResponse & { message?: string }
    this.status = res.status
    this.#browserErrors = {}
    if (res.status !== 200) {
      this.message = answer.message
      return
    }
    this.message = undefined
    this.effects = answer.effects
    this.snapshot = { fingerprint: this.snapshot.fingerprint, serverMemo: answer.serverMemo }
    this.endpoint = answer.effects.endpoint
    if (answer.effects.html !== undefined) this.html = answer.effects.html
  }

  /** What a test value may do to get ready: the browser client's steps, through this test's client. */
  #valueContext(path: string): TestValueContext {
    return {
      path,
      call: async (method, ...params) => {
        await this.#send({ updates: [], calls: [{ method, params }], renderless: true })
        return this.status === 200 ? this.effects : undefined
      },
      post: (url, form) => this.client.post(url, form, { accept: 'application/json', 'x-csrf-token': this.client.cookie('XSRF-TOKEN') ?? '' }),
      refuse: (status, message, errors) => {
        this.status = status
        this.message = message
        this.#browserErrors = errors
      },
    }
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
