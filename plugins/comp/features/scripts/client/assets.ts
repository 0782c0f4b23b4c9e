import { onComponent } from '../../../client/component-hooks.ts'
import { onEffect } from '../../../client/effects.ts'

/**
 * The page's CSP nonce, from the script element of comp.js (the browser
 * hides a nonce from `getAttribute` but not from `.nonce`): tags added
 * after the page loaded must carry the nonce of the page, not the one of
 * the answer or the page they came in.
 */
const pageNonce = (document.currentScript as HTMLScriptElement | null)?.nonce || undefined

const ATTRIBUTE = 'data-comp-asset'

/** The assets keys this page has, or is loading. */
const loaded = new Set<string>()
/** Settles once every asset added after the page loaded has loaded (or failed): component scripts wait for it. */
let loading: Promise<unknown> = Promise.resolve()

/**
 * Waits for the assets being added to the page: a component's script may use what they define.
 *
 * @example
 * ```ts
 * await assetsLoaded()
 * ```
 */
export function assetsLoaded(): Promise<unknown> {
  return loading
}

function present(key: string): boolean {
  if (loaded.has(key)) return true
  if (document.head.querySelector(`[${ATTRIBUTE}="${CSS.escape(key)}"]`)) return (loaded.add(key), true)
  return false
}

/**
 * Takes a block of assets tags that arrived in HTML (a page, or the body
 * of a `wire:navigate` visit) into `<head>`, where an update of their
 * component cannot remove them; a block the page already has is dropped.
 * A visited page's tags carry that page's nonce, which this page's policy
 * refuses: `visited` is that nonce (or null when the page had none), and a
 * tag that carries it gets this page's. One that does not was not the
 * server's (HTML written into the page by someone else) and is dropped, as
 * the browser would have refused it on a normal load.
 */
function claim(root: ParentNode, visited?: string | null): void {
  const renumber = visited !== undefined
  const tags = [...root.querySelectorAll(`[${ATTRIBUTE}]`)].filter((el) => el.parentElement !== document.head)
  // Decided per block before any moves: a block has several tags under one key.
  const had = new Set(tags.map((el) => el.getAttribute(ATTRIBUTE)!).filter(present))
  for (const el of tags) {
    const key = el.getAttribute(ATTRIBUTE)!
    if (had.has(key)) {
      el.remove()
      continue
    }
    if (!renumber) {
      loaded.add(key)
      document.head.append(el)
      continue
    }
    if (visited && el.getAttribute('nonce') !== visited) {
      el.remove()
      continue
    }
    // A visited page's tag has not run yet: it runs as it enters <head>, in order, and scripts wait for it.
    loaded.add(key)
    if (pageNonce) el.setAttribute('nonce', pageNonce)
    if (el instanceof HTMLScriptElement) el.async = false
    const done = whenLoaded(el)
    document.head.append(el)
    if (done) loading = loading.then(() => done)
  }
}

/** Settles when a script with `src` or a stylesheet has loaded or failed; undefined for a tag with nothing to load. */
function whenLoaded(el: Element): Promise<void> | undefined {
  const waits = (el.tagName === 'SCRIPT' && el.hasAttribute('src')) || (el.tagName === 'LINK' && /\bstylesheet\b/i.test(el.getAttribute('rel') ?? ''))
  if (!waits) return undefined
  return new Promise<void>((resolve) => ((el as HTMLElement).onload = (el as HTMLElement).onerror = () => resolve()))
}

/** Adds one block of assets from an update's answer to `<head>`, each tag after the one before has loaded. */
async function add(key: string, html: string): Promise<void> {
  const template = document.createElement('template')
  template.innerHTML = html
  for (const source of [...template.content.children]) {
    let el: Element
    if (source.tagName === 'SCRIPT') {
      // A parsed script never runs: a fresh one does.
      el = document.createElement('script')
      for (const { name, value } of source.attributes) el.setAttribute(name, value)
      el.textContent = source.textContent
    } else el = document.importNode(source, true)
    el.setAttribute(ATTRIBUTE, key)
    if (pageNonce) el.setAttribute('nonce', pageNonce)
    const done = whenLoaded(el)
    document.head.append(el)
    if (done) await done
  }
}

// Tags printed in the page, inside a component: into <head> as the component starts.
onComponent({ start: (component) => claim(component.el) })

// Tags of a component in a visited page: claimed before the new body is in the page (its scripts have not run yet).
document.addEventListener('comp:swap', (event) => {
  const { body, nonce } = (event as CustomEvent<{ body: Element; nonce?: string }>).detail
  claim(body, nonce ?? null)
})

// An update's answer: assets of the components it rendered or mounted that the page does not have yet.
onEffect<Record<string, unknown>>('assets', (_component, assets) => {
  for (const [key, html] of Object.entries(assets)) {
    if (typeof html !== 'string' || present(key)) continue
    loaded.add(key)
    loading = loading.then(() => add(key, html)).catch(console.error)
  }
})
