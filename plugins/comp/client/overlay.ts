import type { BootConfig } from './alpine.ts'

let expiredShown = false

/**
 * A failed request: in debug mode a dismissible overlay with the server's
 * answer (the error page, or its JSON); in production a console line.
 */
export function showError(config: BootConfig, status: number, body: string): void {
  if (!config.debug) {
    console.error(`comp: the update failed (${status || 'network error'}).`, body.slice(0, 500))
    return
  }
  document.getElementById('comp-error')?.remove()
  const overlay = document.createElement('div')
  overlay.id = 'comp-error'
  overlay.setAttribute('role', 'dialog')
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center;padding:2rem'
  const panel = document.createElement('div')
  panel.style.cssText = 'background:#fff;color:#111;width:100%;max-width:60rem;height:80vh;display:flex;flex-direction:column;border-radius:6px;overflow:hidden'
  const bar = document.createElement('div')
  bar.style.cssText = 'display:flex;justify-content:space-between;align-items:center;padding:.5rem 1rem;background:#c33;color:#fff;font:14px system-ui'
  bar.textContent = `The component update failed (${status || 'network error'})`
  const close = document.createElement('button')
  close.type = 'button'
  close.textContent = 'Close'
  close.addEventListener('click', () => overlay.remove())
  bar.append(close)
  const frame = document.createElement('iframe')
  frame.style.cssText = 'flex:1;border:0;width:100%'
  frame.srcdoc = body.trimStart().startsWith('<')
    ? body
    : `<pre style="white-space:pre-wrap;font:12px monospace">${body.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)}</pre>`
  panel.append(bar, frame)
  overlay.append(panel)
  overlay.addEventListener('click', (event) => event.target === overlay && overlay.remove())
  document.body.append(overlay)
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
