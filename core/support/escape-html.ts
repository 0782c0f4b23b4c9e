/**
 * Escapes text for HTML, in element content and in quoted attribute values: `&`, `<`, `>`, `"` and `'`. The one
 * escape the kernel's pages (the error page, the dev pages) and plugins' pages share.
 *
 * @example
 * ```ts
 * import { escapeHtml } from 'kiln-framework'
 * escapeHtml('<b title="x">') // '&lt;b title=&quot;x&quot;&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
