import { HttpException, KilnError, type Application } from '../../../core/index.ts'
import type { TestClient } from '../../../core/testing/index.ts'
import type { ComponentManager } from '../component-manager.ts'
import { signedEndpoint } from '../protocol/keys.ts'
import type { ComponentClass } from '../registry/registry.ts'
import type { Snapshot } from '../protocol/snapshot.ts'
import { componentRoots, unescapeAttribute } from './page-html.ts'

/**
 * The app a test was given, from a test client or the app itself.
 *
 * @example
 * ```ts
 * appOf(client) === client.app // true
 * ```
 */
export function appOf(target: TestClient | Application): Application {
  return 'cookie' in target && typeof target.cookie === 'function' ? target.app : (target as Application)
}

/**
 * The client to drive the component with: the one given, or a new one of the
 * app (loaded only then, as this module ships with the plugin).
 *
 * @example
 * ```ts
 * const client = await clientOf(app)
 * ```
 */
export async function clientOf(target: TestClient | Application): Promise<TestClient> {
  if ('cookie' in target && typeof target.cookie === 'function') return target
  const { TestClient } = await import('../../../core/testing/test-client.ts')
  return new TestClient(target as Application)
}

/**
 * A component of a page, as a visitor meets it: loads `path` with the
 * client and picks the component named `name` (else the page's first), with
 * the page's signed update address.
 *
 * @example
 * ```ts
 * const { snapshot, endpoint, html } = await componentOfPage(client, '/todos', 'todo-list')
 * ```
 */
export async function componentOfPage(client: TestClient, path: string, name?: string): Promise<{ snapshot: Snapshot; endpoint: string; html: string }> {
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
  return { snapshot: root.snapshot, endpoint: unescapeAttribute(endpoint), html: root.html }
}

/** What the mount route answers: the component's first render and its signed update address, or a refusal's message. */
export interface MountAnswer {
  status: number
  body: { html?: string; endpoint?: string; message?: string }
}

/**
 * Mounts a component on its own in a request of the client (its session,
 * its user, and `query` as the request's query string, for `@url()`
 * properties), through a route added to the app for tests.
 *
 * @example
 * ```ts
 * const { status, body } = await mountThroughRoute(client, 'counter', { start: 5 }, '?q=milk')
 * ```
 */
export async function mountThroughRoute(
  client: TestClient,
  component: ComponentClass | string,
  params: Record<string, unknown>,
  query: string,
): Promise<MountAnswer> {
  const key = String(++mounts)
  pending.set(key, { component, params })
  try {
    ensureMountRoute(client.app, client.app.service('comp'))
    const res = await client.get(`/comp/testing/${key}${query}`, { accept: 'application/json' })
    return { status: res.status, body: (await res.json()) as MountAnswer['body'] }
  } finally {
    pending.delete(key)
  }
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
