import type { BootConfig } from './alpine.ts'

/**
 * The boot configuration: `window.__COMP__` (or the JSON script that
 * replaces it in CSP-safe pages), completed from the `comp-endpoint` and
 * `comp-base` metas, and, when they are missing too, from this script's own
 * address (`<base>/comp/comp.js`), so apps mounted under a path work. The
 * endpoint is never guessed from a fixed path when the server named one.
 */
export function readConfig(script: HTMLScriptElement | null): BootConfig {
  let config: Partial<BootConfig> = window.__COMP__ ?? {}
  const json = document.getElementById('comp-config')
  if (!window.__COMP__ && json?.textContent) {
    try {
      config = JSON.parse(json.textContent) as BootConfig
    } catch {
      config = {}
    }
  }
  const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? undefined
  const fromScript = script?.src ? new URL(script.src, location.href).pathname.replace(/\/comp\/comp\.js$/, '') : undefined
  const base = (config.base ?? meta('comp-base') ?? fromScript ?? '').replace(/\/+$/, '')
  const endpoint = config.endpoint ?? meta('comp-endpoint') ?? `${base}/comp/update`
  const resolved: BootConfig = { coalesceMs: 16, debug: false, cspSafe: false, ...config, base, endpoint }
  window.__COMP__ = resolved
  return resolved
}

/** The CSRF token: the boot config's, the layout's meta, else the XSRF-TOKEN cookie. */
export function csrfToken(config: BootConfig): string | undefined {
  return (
    (config.csrf ??
      document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ??
      decodeURIComponent(/(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '')) ||
    undefined
  )
}
