import { createRequire } from 'node:module'
import type { Parser as HtmlParser } from 'htmlparser2'

let parserClass: typeof HtmlParser | undefined
/** htmlparser2 loads with the first mail made from HTML, not with the app (26 modules at every start otherwise). */
function Parser(...args: ConstructorParameters<typeof HtmlParser>): HtmlParser {
  parserClass ??= (createRequire(import.meta.url)('htmlparser2') as typeof import('htmlparser2')).Parser
  return new parserClass(...args)
}

const SKIPPED = new Set(['head', 'style', 'script', 'title', 'template'])
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'table',
  'tr',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'hr',
])

/**
 * The plain-text body of an HTML mail: paragraphs on their own lines, list
 * items with a dash, and every link followed by its address, so a reader
 * of the text part (or of the log) still has the link.
 *
 * @example
 * ```ts
 * htmlToText('<p>Hello</p><p><a href="https://x.test/reset">Reset</a></p>') // 'Hello\n\nReset (https://x.test/reset)'
 * ```
 */
export function htmlToText(html: string): string {
  let out = ''
  let skipping = 0
  const links: Array<{ href: string; start: number }> = []
  const newline = (count: number) => {
    out = out.replace(/[ \t]+$/, '')
    const have = /\n*$/.exec(out)![0].length
    if (out !== '' && have < count) out += '\n'.repeat(count - have)
  }
  const parser = Parser(
    {
      onopentag(name, attributes) {
        if (SKIPPED.has(name)) skipping++
        if (skipping) return
        if (name === 'br') out += '\n'
        else if (name === 'li') {
          newline(1)
          out += '- '
        } else if (BLOCKS.has(name)) newline(2)
        if (name === 'a') links.push({ href: attributes.href ?? '', start: out.length })
      },
      ontext(text) {
        if (skipping) return
        const squeezed = text.replace(/\s+/g, ' ')
        out += /(^|\s)$/.test(out) ? squeezed.replace(/^ /, '') : squeezed
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1)
        if (skipping) return
        if (name === 'a') {
          const link = links.pop()
          const label = link ? out.slice(link.start).trim() : ''
          if (link?.href && !link.href.startsWith('#') && label !== link.href) out += label ? ` (${link.href})` : link.href
        } else if (BLOCKS.has(name)) newline(2)
        else if (name === 'li') newline(1)
        else if (name === 'td' || name === 'th') out += ' '
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  return out
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
