let listening = false

/**
 * A partial page visit (`wire:navigate`): fetch the page, merge its head
 * (title, metas, styles and scripts the page does not have yet), swap the
 * body (inside a view transition when the browser has them), and record it
 * in history. Anything unexpected (an error status, a non-HTML answer, a
 * network failure) falls back to a normal navigation.
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
  try {
    const response = await fetch(target.href, { headers: { accept: 'text/html', 'x-comp-navigate': 'true' }, credentials: 'same-origin' })
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/html')) throw new Error(`HTTP ${response.status}`)
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html')
    const swap = () => {
      mergeHead(doc)
      document.body.replaceWith(document.adoptNode(doc.body))
      runScripts(document.body)
      if (options.push !== false) history.pushState({ compNavigate: true }, '', response.url || target.href)
      if (!target.hash) window.scrollTo(0, 0)
      document.dispatchEvent(new CustomEvent('comp:navigated', { detail: { url: target.href } }))
    }
    const transition = (document as Document & { startViewTransition?: (callback: () => void) => unknown }).startViewTransition
    if (transition) transition.call(document, swap)
    else swap()
  } catch {
    location.href = target.href
  }
}

function listen(): void {
  if (listening) return
  listening = true
  window.addEventListener('popstate', (event) => {
    if ((event.state as { compNavigate?: boolean } | null)?.compNavigate) void navigate(location.href, { push: false })
  })
  history.replaceState({ ...(history.state ?? {}), compNavigate: true }, '', location.href)
}

/** The new page's title and metas replace ours; styles and scripts we do not have yet are added. */
function mergeHead(doc: Document): void {
  document.title = doc.title
  for (const meta of doc.head.querySelectorAll('meta[name]')) {
    const name = meta.getAttribute('name')!
    const current = document.head.querySelector(`meta[name="${CSS.escape(name)}"]`)
    if (current) current.setAttribute('content', meta.getAttribute('content') ?? '')
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

/** Scripts parsed by DOMParser never run: put fresh copies in their place. */
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
