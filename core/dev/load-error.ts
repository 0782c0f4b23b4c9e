import { errorPage } from '../http/errors/error-page.ts'
import { markKilnFrames } from '../http/errors/kiln-frames.ts'

// esbuild (through tsx) reports a syntax error in its message, `/srv/shop/routes/web.ts:7:12: ERROR: Expected ")"`,
// with a stack of the compiler's own frames.
const SYNTAX_ERROR = /^(\/[^\n]*?|[A-Za-z]:\\[^\n]*?):(\d+):(\d+): ERROR: (.*)$/m
const RELOAD_QUERY = /\?kiln-reload=\d+/g

/**
 * The error as `kiln dev` shows it: the reload number gone from file URLs
 * (`routes/web.ts?kiln-reload=3`), and a syntax error's file, line and
 * column made the first frame of its stack, so the error page opens the
 * offending line.
 *
 * @example
 * ```ts
 * const shown = loadError(error)
 * console.error(shown.stack)
 * ```
 */
export function loadError(error: unknown): Error {
  const original = error instanceof Error ? error : new Error(String(error))
  const message = original.message.replace(RELOAD_QUERY, '')
  const shown = new Error(message, { cause: original.cause })
  shown.name = original.name
  let stack = (original.stack ?? `${original.name}: ${message}`).replace(RELOAD_QUERY, '')
  const syntax = SYNTAX_ERROR.exec(message)
  if (syntax) {
    const [, file, line, column, text] = syntax
    shown.message = `${text} (${file}:${line}:${Number(column) + 1})`
    stack = `${shown.name}: ${shown.message}\n    at ${file}:${line}:${Number(column) + 1}`
  }
  shown.stack = stack
  return shown
}

let youch: Promise<typeof import('youch')> | undefined

/**
 * The page a browser gets while the application cannot load (a syntax
 * error, a failing config file): the debug error page, by youch, with the
 * application's frames marked; the plain page should youch fail.
 *
 * @example
 * ```ts
 * const html = await loadErrorPage(loadError(error), '/srv/shop')
 * ```
 */
export async function loadErrorPage(error: Error, root: string): Promise<string> {
  try {
    const { Youch } = await (youch ??= import('youch'))
    return await new Youch().useTransformer(markKilnFrames(root)).toHTML(error, { title: 'The application did not load' })
  } catch {
    return errorPage(500, error.message, error.stack)
  }
}
