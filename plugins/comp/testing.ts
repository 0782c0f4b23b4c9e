import { Parser } from 'htmlparser2'
import { HttpException, type Application, KilnError } from '../../core/index.ts'
import type { TestClient } from '../../core/testing/index.ts'
import { ComponentManager } from './component-manager.ts'
import { signedEndpoint } from './keys.ts'
import type { ComponentClass } from './registry.ts'
import type { Snapshot } from './snapshot.ts'
import type { UpdateResponse } from './lifecycle/update.ts'

/**
 * A component under test, driven the way the browser drives it: every
 * `set`, `call` and `dispatch` is a real `POST /comp/update` through the
 * test client (session, CSRF token, signed address, checksum), and the
 * answer's state, HTML, errors and dispatches are kept for assertions.
 *
 * An answer other than 200 does not throw: `status` and `message` say what
 * the server refused, and the state stays as it was, so refusals can be
 * asserted like anything else.
 *
 * @example
 * ```ts
 * const counter = await testComponent(client, Counter, { start: 5 })
 * await counter.call('increment')
 * t.is(counter.get('count'), 6)
 * t.regex(counter.html, /6/)
 * ```
 */
export class ComponentTest {
  /** The HTML of the last render (the mount's, until an update renders again). */
  html: string
  /** The effects of the last successful update. */
  effects: UpdateResponse['effects'] | undefined
  /** The status of the last update (200 until one is sent). */
  status = 200
  /** The `message` of the last refused update. */
  message: string | undefined

  private constructor(
    private readonly client: TestClient,
    private snapshot: Snapshot,
    private endpoint: string,
    html: string,
  ) {
    this.html = html
  }

  /**
   * A component of a page, as a visitor meets it: loads `path` with the
   * client and picks the component named `name` (else the page's first).
   *
   * @example
   * ```ts
   * const todos = await ComponentTest.visit(client, '/todos', 'todo-list')
   * ```
   */
  static async visit(client: TestClient, path: string, name?: string): Promise<ComponentTest> {
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
   * client (so its session and `actingAs` user apply).
   *
   * @example
   * ```ts
   * const form = await ComponentTest.mount(client, 'todo-form')
   * ```
   */
  static async mount(client: TestClient, component: ComponentClass | string, params: Record<string, unknown> = {}): Promise<ComponentTest> {
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

  /** The public state after the last update. @example `counter.data.count` */
  get data(): Record<string, unknown> {
    return this.snapshot.serverMemo.data
  }

  /** Validation messages by field after the last update. @example `form.errors.title` */
  get errors(): Record<string, string[]> {
    return (this.snapshot.serverMemo.errors ?? {}) as Record<string, string[]>
  }

  /** The events the last update dispatched. @example `form.dispatches[0]?.name` */
  get dispatches(): UpdateResponse['effects']['dispatches'] {
    return this.effects?.dispatches ?? []
  }

  /** A property's value (dotted paths reach into objects). @example `form.get('address.city')` */
  get(path: string): unknown {
    let value: unknown = this.data
    for (const part of path.split('.')) value = value === null || typeof value !== 'object' ? undefined : (value as Record<string, unknown>)[part]
    return value
  }

  /** Sets a property, as `wire:model` does, and renders. @example `await form.set('title', 'Buy milk')` */
  set(path: string, value: unknown): Promise<this> {
    return this.send({ updates: [[path, value]], calls: [] })
  }

  /** Calls a method with parameters. @example `await counter.call('add', 5)` */
  call(method: string, ...params: unknown[]): Promise<this> {
    return this.send({ updates: [], calls: [{ method, params }] })
  }

  /** Delivers an event to the component's `@on` listeners. @example `await stats.dispatch('todo-added', { title: 'x' })` */
  dispatch(event: string, data: Record<string, unknown> = {}): Promise<this> {
    return this.call('$event', event, data)
  }

  /** Renders again with the current state. @example `await list.refresh()` */
  refresh(): Promise<this> {
    return this.call('$refresh')
  }

  private async send(body: { updates: Array<[string, unknown]>; calls: Array<{ method: string; params: unknown[] }> }): Promise<this> {
    const payload = { fingerprint: this.snapshot.fingerprint, serverMemo: this.snapshot.serverMemo, ...body, island: null }
    const res = await this.client.json('POST', this.endpoint, payload, { 'x-csrf-token': this.client.cookie('XSRF-TOKEN') ?? '' })
    const answer = (await res.json()) as UpdateResponse & { message?: string }
    this.status = res.status
    if (res.status !== 200) {
      this.message = answer.message
      return this
    }
    this.message = undefined
    this.effects = answer.effects
    this.snapshot = { fingerprint: this.snapshot.fingerprint, serverMemo: answer.serverMemo }
    this.endpoint = answer.effects.endpoint
    if (answer.effects.html !== undefined) this.html = answer.effects.html
    return this
  }
}

/**
 * Mounts a component on its own for a test: a shorthand for
 * {@link ComponentTest.mount}.
 *
 * @example
 * ```ts
 * const counter = await testComponent(client, 'counter')
 * await counter.call('increment')
 * ```
 */
export function testComponent(client: TestClient, component: ComponentClass | string, params: Record<string, unknown> = {}): Promise<ComponentTest> {
  return ComponentTest.mount(client, component, params)
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

function componentRoots(html: string): Array<{ snapshot: Snapshot; html: string }> {
  return [...html.matchAll(/<([A-Za-z][\w:.-]*)\s[^>]*?wire:snapshot="([^"]*)"/g)].map((match) => ({
    snapshot: JSON.parse(unescapeAttribute(match[2]!)) as Snapshot,
    html: outerHtml(html, match.index),
  }))
}

/** The element that starts at `start`, up to its end tag. */
function outerHtml(html: string, start: number): string {
  const rest = html.slice(start)
  let depth = 0
  let end = rest.length
  const parser = new Parser(
    {
      onopentag() {
        depth++
      },
      onclosetag() {
        depth--
        if (depth === 0 && end === rest.length) end = parser.endIndex + 1
      },
    },
    { decodeEntities: false, recognizeSelfClosing: true },
  )
  parser.end(rest)
  return rest.slice(0, end)
}

function unescapeAttribute(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}
