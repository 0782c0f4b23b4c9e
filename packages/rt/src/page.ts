/** Browser context, when there is one. @internal */
export const page = {
  location(): { protocol: string; host: string; origin: string } | undefined {
    return (globalThis as { location?: { protocol: string; host: string; origin: string } }).location
  },
  /** `<meta name="app-base-path" content="/app">`, as Kiln layouts print it. */
  basePath(): string {
    const doc = (globalThis as { document?: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document
    return (doc?.querySelector('meta[name="app-base-path"]')?.getAttribute('content') ?? '').replace(/\/+$/, '')
  },
  /** The `XSRF-TOKEN` cookie Kiln sets, for the CSRF header. */
  xsrfToken(): string | undefined {
    const doc = (globalThis as { document?: { cookie?: string } }).document
    const match = doc?.cookie?.match(/(?:^|;\s*)XSRF-TOKEN=([^;]+)/)
    return match ? decodeURIComponent(match[1]) : undefined
  },
}
