/** A page fetched for a visit: `ok` false sends the browser there the usual way. */
interface Page {
  ok: boolean
  url: string
  html: string
  /** The nonce of the page's Content-Security-Policy: its tags that carry it are the server's own. */
  nonce?: string
}

/** Pages fetched ahead (hover, mousedown): used by the visit that follows within this many milliseconds. */
const FRESH_MS = 30_000
const prefetched = new Map<string, { at: number; page: Promise<Page> }>()
/** Scroll positions of the history entries seen in this page's life, by entry key. */
const positions = new Map<string, number>()
let current: string | undefined

/**
 * Fetches a page ahead of a visit (`wire:navigate` on mousedown,
 * `wire:navigate.hover` after a short hover); the visit then takes it
 * instead of asking again.
 *
 * @example
 * ```ts
 * prefetch('/posts')
 * ```
 */
export function prefetch(url: string): void {
  let target: URL
  try {
    target = new URL(url, location.href)
  } catch {
    return // the click reports it
  }
  // Only pages a visit would fetch itself: this site's (another's is a normal navigation).
  if (target.origin !== location.origin) return
  const href = target.href.replace(/#.*$/, '')
  const entry = prefetched.get(href)
  if (!entry || Date.now() - entry.at > FRESH_MS) prefetched.set(href, { at: Date.now(), page: load(href) })
}

async function load(href: string): Promise<Page> {
  try {
    const response = await fetch(href, { headers: { accept: 'text/html', 'x-comp-navigate': 'true' }, credentials: 'same-origin' })
    const ok = response.ok && (response.headers.get('content-type') ?? '').includes('text/html')
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
    return { ok, url: response.url || href, html: ok ? await response.text() : '', nonce }
  } catch {
    return { ok: false, url: href, html: '' }
  }
}

/**
 * A partial page visit (`wire:navigate`): fetch the page (or take the one
 * prefetched), merge its head (title, metas, styles and scripts the page
 * does not have yet), swap the body (inside a view transition when the
 * browser has them; `wire:persist` elements move over alive, see
 * features/navigate), record it in history and scroll: to the top, to the
 * `#hash`, or, back and forward, to where that entry was left. Anything
 * unexpected (an error status, a non-HTML answer, a network failure) falls
 * back to a normal navigation. `comp:navigate` and `comp:navigated` events
 * mark the start and the end.
 *
 * @example
 * ```ts
 * await navigate('/posts')
 * ```
 */
export async function navigate(url: string, options: { push?: boolean; hard?: boolean } = {}): Promise<void> {
  let target: URL
  try {
    target = new URL(url, location.href)
  } catch {
    return console.error(`comp: "${url}" is not an address.`)
  }
  // javascript:, data: and the like would run in this page: only web addresses are followed.
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return console.error(`comp: refused to navigate to a ${target.protocol} address.`)
  if (options.hard || target.origin !== location.origin) {
    location.href = target.href
    return
  }
  listen()
  document.dispatchEvent(new CustomEvent('comp:navigate', { detail: { url: target.href } }))
  const href = target.href.replace(/#.*$/, '')
  const ahead = prefetched.get(href)
  prefetched.delete(href)
  const page = await (ahead && Date.now() - ahead.at <= FRESH_MS ? ahead.page : load(href))
  if (!page.ok) {
    location.href = target.href
    return
  }
  const doc = new DOMParser().parseFromString(page.html, 'text/html')
  const swap = () => {
    // Where this page was left, before anything moves out of it (a persisted block would shift it).
    const left = window.scrollY
    if (current) positions.set(current, left)
    mergeHead(doc)
    const body = document.adoptNode(doc.body)
    runScripts(body)
    document.dispatchEvent(new CustomEvent('comp:swap', { detail: { body, nonce: page.nonce } }))
    if (options.push !== false) {
      history.replaceState({ ...history.state, scroll: left }, '')
      history.pushState({ compNavigate: true, key: (current = key()) }, '', new URL(target.hash, page.url).href)
    } else current = (history.state as { key?: string } | null)?.key
    // As Livewire does: the old page's Alpine tree (and its components) ends before the body goes; Alpine's
    // observer does not see a replaced body's descendants leave. Persisted blocks have moved into `body` already.
    window.Alpine?.destroyTree(document.body)
    document.body.replaceWith(body)
    scroll(options.push === false, target.hash)
    document.dispatchEvent(new CustomEvent('comp:navigated', { detail: { url: target.href } }))
  }
  const transition = (document as Document & { startViewTransition?: (callback: () => void) => unknown }).startViewTransition
  if (transition) transition.call(document, swap)
  else swap()
}

const key = () => Math.random().toString(36).slice(2)

/** Back and forward: where the entry was left; a new visit: the `#hash`, else the top. */
function scroll(restore: boolean, hash: string): void {
  const saved = (history.state as { scroll?: number } | null)?.scroll
  if (restore) return window.scrollTo(0, (current ? positions.get(current) : undefined) ?? saved ?? 0)
  const anchor = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null
  if (anchor) anchor.scrollIntoView()
  else window.scrollTo(0, 0)
}

function listen(): void {
  if (current) return
  // The browser's own restoration would scroll before the swapped page is there.
  history.scrollRestoration = 'manual'
  window.addEventListener('popstate', (event) => {
    if ((event.state as { compNavigate?: boolean } | null)?.compNavigate) void navigate(location.href, { push: false })
  })
  history.replaceState({ ...(history.state ?? {}), compNavigate: true, key: (current = key()) }, '', location.href)
}

/** The new page's title and metas replace ours; styles and scripts we do not have yet are added. */
function mergeHead(doc: Document): void {
  document.title = doc.title
  for (const meta of doc.head.querySelectorAll('meta[name]')) {
    const name = meta.getAttribute('name')!
    const existing = document.head.querySelector(`meta[name="${CSS.escape(name)}"]`)
    if (existing) existing.setAttribute('content', meta.getAttribute('content') ?? '')
    else document.head.append(meta.cloneNode(true))
  }
  const endpoint = doc.head.querySelector('meta[name="comp-endpoint"]')?.getAttribute('content')
  if (endpoint && window.__COMP__) window.__COMP__.endpoint = endpoint
  for (const link of doc.head.querySelectorAll('link[rel="stylesheet"], style')) {
    const href = link.getAttribute('href')
    const present = href
      ? document.head.querySelector(`link[href="${CSS.escape(href)}"]`)
      : [...document.head.querySelectorAll('style')].some((style) => style.textContent === link.textContent)
    if (!present) document.head.append(link.cloneNode(true))
  }
  for (const script of doc.head.querySelectorAll('script[src]')) {
    const src = script.getAttribute('src')!.split('?')[0]!
    if (![...document.scripts].some((existing) => existing.getAttribute('src')?.split('?')[0] === src)) document.head.append(recreate(script))
  }
}

/** Scripts parsed by DOMParser never run: put fresh copies in their place (they run once the body is in the page). */
function runScripts(root: Element): void {
  for (const script of root.querySelectorAll('script')) {
    if (
      script.src &&
      [...document.head.querySelectorAll('script[src]')].some((s) => s.getAttribute('src')?.split('?')[0] === script.getAttribute('src')?.split('?')[0])
    )
      continue
    script.replaceWith(recreate(script))
  }
}

function recreate(script: Element): HTMLScriptElement {
  const fresh = document.createElement('script')
  for (const { name, value } of script.attributes) fresh.setAttribute(name, value)
  fresh.textContent = script.textContent
  return fresh
}
