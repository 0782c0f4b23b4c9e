import type { BootConfig } from './alpine.ts'

let expiredShown = false

/** What a failed update says: a page to show (the debug page), or a short message (with a stack, when the server sent one). */
interface Failure {
  page?: string
  message: string
  stack?: string
}

/**
 * Reads the server's answer to a failed update: an HTML page (the debug
 * page of a crash), JSON `{ message }` (a 4xx; the debug answer of a crash
 * outside the component adds `stack`, and a failed part of a bundled or
 * streamed answer adds its `page`), or plain text (a network error).
 */
function readFailure(body: string): Failure {
  if (body.trimStart().startsWith('<')) return { page: body, message: '' }
  try {
    const json = JSON.parse(body) as { message?: unknown; page?: unknown; stack?: unknown }
    if (typeof json.page === 'string') return { page: json.page, message: '' }
    if (typeof json.message === 'string') return { message: json.message, ...(Array.isArray(json.stack) ? { stack: json.stack.join('\n') } : {}) }
  } catch {
    // Not JSON: the text itself is the message.
  }
  return { message: body.slice(0, 2000) }
}

/**
 * A failed request: in debug mode a dismissible dialog, as Livewire's. A
 * crash shows the server's debug page (the same as a route's) in a frame;
 * any other failure (a 4xx such as an unknown action, a network error) a
 * short message. In production a console line, never a stack.
 */
export function showError(config: BootConfig, status: number, body: string): void {
  if (!config.debug) {
    console.error(`comp: the update failed (${status || 'network error'}).`, body.slice(0, 500))
    return
  }
  const failure = readFailure(body)
  document.getElementById('comp-error')?.remove()
  const overlay = document.createElement('div')
  overlay.id = 'comp-error'
  overlay.setAttribute('role', 'dialog')
  overlay.setAttribute('aria-modal', 'true')
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center;padding:2rem'
  const panel = document.createElement('div')
  panel.style.cssText = `background:#fff;color:#111;width:100%;max-width:${failure.page ? '80rem;height:85vh' : '36rem'};display:flex;flex-direction:column;border-radius:6px;overflow:hidden`
  const bar = document.createElement('div')
  bar.style.cssText = 'display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.5rem 1rem;background:#c33;color:#fff;font:14px system-ui'
  bar.textContent = `The component update failed (${status || 'network error'})`
  const close = document.createElement('button')
  close.type = 'button'
  close.textContent = 'Close'
  close.addEventListener('click', () => overlay.remove())
  bar.append(close)
  let content: HTMLElement
  if (failure.page) {
    const frame = document.createElement('iframe')
    frame.title = 'Error details'
    frame.style.cssText = 'flex:1;border:0;width:100%'
    frame.srcdoc = failure.page
    content = frame
  } else {
    content = document.createElement('div')
    content.className = 'comp-error-message'
    content.style.cssText = 'padding:1rem;font:15px/1.5 system-ui;max-height:70vh;overflow:auto'
    content.textContent = failure.message || 'The server gave no reason.'
    if (failure.stack) {
      const stack = document.createElement('pre')
      stack.style.cssText = 'white-space:pre-wrap;font:12px monospace;color:#555'
      stack.textContent = failure.stack
      content.append(stack)
    }
  }
  panel.append(bar, content)
  overlay.append(panel)
  overlay.addEventListener('click', (event) => event.target === overlay && overlay.remove())
  document.body.append(overlay)
  close.focus()
}

/** The page's session ended for good: one notice per page, never a dialog. */
export function showExpired(): void {
  if (expiredShown) return
  expiredShown = true
  const notice = document.createElement('div')
  notice.id = 'comp-expired'
  notice.setAttribute('role', 'status')
  notice.style.cssText =
    'position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:2147483647;padding:.75rem 1rem;background:#222;color:#fff;font:14px system-ui;border-radius:6px'
  notice.textContent = 'This page has expired. Reload it to continue.'
  document.body.append(notice)
}

const NOTICE_KEY = 'comp:reloaded'

/**
 * The page's components are out of date (loaded in another session, before
 * a login or logout, or too long ago): reload it, and say why once the new
 * page is up.
 */
export function reloadOutOfDate(): void {
  try {
    sessionStorage.setItem(NOTICE_KEY, '1')
  } catch {
    // Storage refused (private mode): the reload still happens, without the notice.
  }
  location.reload()
}

/** After a reload for an out-of-date page: a short notice, gone after a few seconds. */
export function showReloadNotice(): void {
  let reloaded: string | null
  try {
    reloaded = sessionStorage.getItem(NOTICE_KEY)
    sessionStorage.removeItem(NOTICE_KEY)
  } catch {
    return
  }
  if (!reloaded) return
  const notice = document.createElement('div')
  notice.id = 'comp-reloaded'
  notice.setAttribute('role', 'status')
  notice.style.cssText =
    'position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:2147483647;padding:.75rem 1rem;background:#222;color:#fff;font:14px system-ui;border-radius:6px'
  notice.textContent = 'This page was out of date (a login, a logout or a long pause), so it was reloaded. Please try again.'
  document.body.append(notice)
  setTimeout(() => notice.remove(), 6000)
}
