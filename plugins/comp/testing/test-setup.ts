import type { Application } from '../../../core/index.ts'
import type { TestClient } from '../../../core/testing/index.ts'
import type { ComponentClass } from '../registry/registry.ts'

/** A query string value, as `@url()` properties read it. */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean>

/** What a mount's request carries besides the component's parameters. */
export interface MountSetup {
  readonly query: Readonly<Record<string, QueryValue>>
  readonly cookies: Readonly<Record<string, string>>
}

/** Mounts a component with a setup: `ComponentTest`'s own mount (its chain, `Chain`), given to the setup so that this file needs no import of it. */
export type MountWith<Chain> = (
  client: TestClient | Application,
  component: ComponentClass | string,
  params: Record<string, unknown>,
  setup: MountSetup,
) => Chain

/**
 * How the next component test mounts, as Livewire's
 * `Livewire::withQueryParams([...])->withCookies([...])->test(...)`: the
 * query string of the mount's request (read by `@url()` properties) and
 * cookies for the client (read in `mount()` as `this.ctx.cookies.get(name)`). Each
 * `with…` returns a new setup; `test()` mounts.
 *
 * @example
 * ```ts
 * const search = await ComponentTest.withQueryParams({ q: 'milk' }).withCookies({ theme: 'dark' }).test(app, 'search')
 * ```
 */
export class ComponentTestSetup<Chain> {
  /** @example `new ComponentTestSetup(mountWith)` */
  constructor(
    private readonly mountWith: MountWith<Chain>,
    private readonly setup: MountSetup = { query: {}, cookies: {} },
  ) {}

  /** Adds to the query string of the mount's request. @example `ComponentTest.withQueryParams({ q: 'milk', page: 2 })` */
  withQueryParams(params: Record<string, QueryValue>): ComponentTestSetup<Chain> {
    return new ComponentTestSetup(this.mountWith, { ...this.setup, query: { ...this.setup.query, ...params } })
  }

  /**
   * Adds cookies to the client, sealed as the app seals its own (so
   * `this.ctx.cookies.get('theme')` reads them), from the mount on.
   *
   * @example `ComponentTest.withCookies({ theme: 'dark' })`
   */
  withCookies(cookies: Record<string, string>): ComponentTestSetup<Chain> {
    return new ComponentTestSetup(this.mountWith, { ...this.setup, cookies: { ...this.setup.cookies, ...cookies } })
  }

  /** Mounts the component with this setup: a chain to `await`, as `testComponent`'s. @example `await setup.test(app, 'search')` */
  test(client: TestClient | Application, component: ComponentClass | string, params: Record<string, unknown> = {}): Chain {
    return this.mountWith(client, component, params, this.setup)
  }
}

/**
 * The query string of a mount's request (`?q=milk&tags=a&tags=b`), empty for none.
 *
 * @example
 * ```ts
 * queryString({ q: 'milk' }) // '?q=milk'
 * ```
 */
export function queryString(query: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) for (const one of [value].flat()) search.append(key, String(one))
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * Puts cookies in a test client's jar, sealed with the app's encrypter as
 * `encryptCookies` seals them (except the `session.unencrypted_cookies`).
 *
 * @example
 * ```ts
 * addCookies(client, { theme: 'dark' })
 * ```
 */
export function addCookies(client: TestClient, cookies: Readonly<Record<string, string>>): void {
  const exempt = new Set(client.app.config.get<string[]>('session.unencrypted_cookies', []))
  const encrypter = client.app.service('encrypter')
  for (const [name, value] of Object.entries(cookies)) {
    const sealed = exempt.has(name) ? value : encrypter.encrypt(value, `cookie:${name}`)
    client.cookies.set(name, { value: encodeURIComponent(sealed), path: '/' })
  }
}
