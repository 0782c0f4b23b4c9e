import { register } from 'node:module'
import { pathToFileURL } from 'node:url'

// Runs on Node's loader thread. Every module under the app's root (not its node_modules) resolves with the current
// reload number in its URL: after a bump, the next import of any of them (and of everything they import from the app)
// is a new URL, so Node evaluates the changed code afresh, while Kiln and the packages stay loaded. The number lives in
// shared memory, so a bump is seen by the very next import, with no message to wait for.
const HOOKS = `
let root
let counter
export function initialize(data) {
  root = data.root
  counter = new Int32Array(data.counter)
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  const reload = Atomics.load(counter, 0)
  if (reload === 0 || !result.url.startsWith(root) || result.url.includes('/node_modules/')) return result
  const url = new URL(result.url)
  url.searchParams.set('kiln-reload', String(reload))
  return { ...result, url: url.href }
}
`

/** The handle on the loader hook: {@link ReloadHooks.bump} makes the app's modules load afresh. */
export interface ReloadHooks {
  /** How many times the app's modules were renewed. */
  readonly reloads: number
  /** From now on, importing a module of the app evaluates it again (its file as it is now). */
  bump(): number
}

/**
 * Installs the loader hook that lets `kiln dev` import an application's
 * code again without a new process: after `bump()`, every module under
 * `root` (outside `node_modules`) resolves to a new URL, so Node evaluates
 * it afresh; Kiln's own modules and the packages are not loaded again. The
 * modules of earlier versions stay in memory (Node never unloads a module):
 * a development process grows a little with each reload.
 *
 * @example
 * ```ts
 * const hooks = installReloadHooks('/srv/shop')
 * hooks.bump()
 * const app = await createApp({ root: '/srv/shop' }) // routes, components, models and config as they are now
 * ```
 */
export function installReloadHooks(root: string): ReloadHooks {
  const counter = new Int32Array(new SharedArrayBuffer(4))
  const rootUrl = pathToFileURL(root.endsWith('/') ? root : `${root}/`).href
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { root: rootUrl, counter: counter.buffer } })
  return {
    get reloads() {
      return Atomics.load(counter, 0)
    },
    bump: () => Atomics.add(counter, 0, 1) + 1,
  }
}
