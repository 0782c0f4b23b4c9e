import { escapeHtml } from '../../support/escape-html.ts'

/**
 * The small HTML page browsers see for an error. With a stack (debug mode,
 * when the full debug page cannot be rendered) it is shown below the message.
 *
 * @example
 * ```ts
 * errorPage(404, 'Not found.')
 * ```
 */
export function errorPage(status: number, message: string, stack?: string): string {
  const trace = stack ? `<pre>${escapeHtml(stack)}</pre>` : ''
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} ${escapeHtml(message)}</title>`
  const body = `<h1>${status} · ${escapeHtml(message)}</h1>${trace}`
  return `<!doctype html><html lang="en"><head>${head}<style>${STYLE}</style></head><body>${body}</body></html>`
}

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:4rem auto;max-width:40rem;padding:0 1rem;color:#222}',
  'h1{font-size:1.5rem}',
  'pre{overflow:auto;background:#f4f4f4;padding:1rem;font-size:12px}',
].join('')
