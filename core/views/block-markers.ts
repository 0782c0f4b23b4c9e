import type Handlebars from 'handlebars'

type Program = hbs.AST.Program
type Statement = hbs.AST.Statement
type Block = hbs.AST.BlockStatement
/** A text node as Handlebars makes it (its typings give `original` the wrong type). */
type Content = Omit<hbs.AST.ContentStatement, 'original'> & { original: string }

/** The comment put before a block's output: Alpine's morph reads it as the start of one unit. @example `html.startsWith(BLOCK_START)` */
export const BLOCK_START = '<!--[if BLOCK]><![endif]-->'
/** The comment put after a block's output. @example `html.endsWith(BLOCK_END)` */
export const BLOCK_END = '<!--[if ENDBLOCK]><![endif]-->'

/** Which blocks get markers: all in element content, but those of the helpers named in `except`. @example `{ except: ['island'] }` */
export interface BlockMarkerOptions {
  /** Block helpers whose output needs no markers (one that always renders the same single element). */
  except?: readonly string[]
}

/** Elements whose content is text to the browser: a comment written there is not a comment. */
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'])
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr'])

/** Where the HTML written so far stands: in element content, inside a tag, a comment or a raw-text element. */
interface Scan {
  mode: 'text' | 'tag' | 'comment' | 'raw'
  quote: string
  name: string
  naming: boolean
  closing: boolean
  raw: string
  previous: string
  /** Elements opened minus closed since the branch began, and the lowest it went (below 0: it closed one it did not open). */
  depth: number
  low: number
}

/**
 * Parses a Handlebars template the way `compile` does and puts
 * `<!--[if BLOCK]><![endif]-->` before and `<!--[if ENDBLOCK]><![endif]-->`
 * after the output of every block (`{{#if}}`, `{{#unless}}`, `{{#each}}`,
 * `{{#with}}`, custom block helpers) that stands in element content and
 * whose every branch closes the elements it opens. A block inside a tag, an
 * attribute, an HTML comment or `<script>`, `<style>`, `<textarea>`,
 * `<title>` is left alone, and so is one that opens an element another
 * branch or the rest of the template closes. `{{else if}}` chains are one
 * block. Alpine's morph patches what lies between two markers as a unit, so
 * a block that appears or goes away no longer shifts the elements after
 * it onto new ones.
 *
 * The result is an AST for `hbs.compile`: whitespace is already settled
 * (standalone lines, `~`), so compiling it gives the same output as the
 * source, markers aside.
 *
 * @example
 * ```ts
 * const template = hbs.compile(markedTemplate(hbs, '{{#if error}}<p>{{error}}</p>{{/if}}<input>'))
 * template({ error: 'x' }) // '<!--[if BLOCK]><![endif]--><p>x</p><!--[if ENDBLOCK]><![endif]--><input>'
 * ```
 */
export function markedTemplate(hbs: typeof Handlebars, source: string, options: BlockMarkerOptions = {}): Program {
  const ast = hbs.parse(source)
  walk(ast.body, fresh(), new Set(options.except ?? []), false)
  settle(ast)
  return ast
}

function fresh(): Scan {
  return { mode: 'text', quote: '', name: '', naming: false, closing: false, raw: '', previous: '', depth: 0, low: 0 }
}

/** Marks the blocks of one statement list; false when something in it leaves elements open or closes outer ones. */
function walk(body: Statement[], scan: Scan, except: Set<string>, chained: boolean): boolean {
  let balanced = true
  for (let i = 0; i < body.length; i++) {
    const node = body[i]!
    if (node.type === 'ContentStatement') {
      advance(scan, (node as hbs.AST.ContentStatement).value)
      continue
    }
    if (node.type !== 'BlockStatement') continue
    const block = node as Block
    const start = { ...scan }
    let whole = true
    let first: Scan | undefined
    for (const branch of [block.program, block.inverse]) {
      if (!branch) continue
      const inner: Scan = { ...start, depth: 0, low: 0 }
      const ok = walk(branch.body, inner, except, Boolean((branch as Program & { chained?: boolean }).chained))
      first ??= inner
      if (!ok || inner.mode !== start.mode || inner.raw !== start.raw || inner.depth !== 0 || inner.low < 0) whole = false
    }
    if (!whole) {
      balanced = false
      // The state the first branch leaves: the best guess for what follows the block.
      if (first) Object.assign(scan, first, { depth: start.depth + first.depth, low: Math.min(start.low, start.depth + first.low) })
      continue
    }
    const helper = block.path.type === 'PathExpression' ? (block.path as hbs.AST.PathExpression).original : ''
    // The `{{else if}}` of a chain is part of the block before it: one pair of markers for the whole chain.
    if (start.mode !== 'text' || (chained && i === 0) || except.has(helper)) continue
    body.splice(i, 1, marker(BLOCK_START, block), block, marker(BLOCK_END, block))
    i += 2
  }
  return balanced
}

function marker(value: string, block: Block): Statement {
  const node: Content = { type: 'ContentStatement', value, original: value, loc: block.loc }
  return node
}

/** Follows the HTML of one piece of template text. */
function advance(scan: Scan, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (scan.mode === 'comment') {
      if (text.startsWith('-->', i)) {
        scan.mode = 'text'
        i += 2
      }
    } else if (scan.mode === 'raw') {
      // Only the element's own end tag ends its text.
      if (c === '<' && text[i + 1] === '/' && text.slice(i + 2, i + 2 + scan.raw.length).toLowerCase() === scan.raw) {
        openTag(scan, true, scan.raw)
        i += 1 + scan.raw.length
      }
    } else if (scan.mode === 'text') {
      if (c !== '<') continue
      if (text.startsWith('<!--', i)) {
        scan.mode = 'comment'
        i += 3
      } else if (text[i + 1] === '/') openTag(scan, true, '')
      // A `<` that ends the text is taken for a tag whose name is a mustache (`<{{tag}}`): in doubt, no markers.
      else if (i + 1 === text.length || /[A-Za-z!?]/.test(text[i + 1]!)) openTag(scan, false, '')
    } else tagChar(scan, c)
  }
}

function openTag(scan: Scan, closing: boolean, name: string): void {
  Object.assign(scan, { mode: 'tag', closing, name, naming: !name, quote: '', previous: '' })
}

/** One character inside a tag: its name, quoted attribute values, and the `>` that ends it. */
function tagChar(scan: Scan, c: string): void {
  if (scan.quote) {
    if (c === scan.quote) scan.quote = ''
    return
  }
  if (scan.naming && /[\w:-]/.test(c)) {
    scan.name += c.toLowerCase()
    return
  }
  if (!(scan.closing && c === '/' && !scan.name)) scan.naming = false
  if (c === '"' || c === "'") scan.quote = c
  else if (c === '>') closeTag(scan)
  if (!/\s/.test(c)) scan.previous = c
}

function closeTag(scan: Scan): void {
  const { name, closing, previous } = scan
  scan.mode = 'text'
  if (closing) {
    if (name === scan.raw) scan.raw = ''
    // A void element's end tag is ignored by the browser, and one whose name is a mustache was not counted when it opened.
    if (VOID.has(name) || name === '') return
    scan.depth--
    scan.low = Math.min(scan.low, scan.depth)
  } else if (!VOID.has(name) && previous !== '/' && name !== '') {
    scan.depth++
    if (RAW.has(name)) Object.assign(scan, { mode: 'raw', raw: name })
  }
}

/**
 * `compile` runs Handlebars' whitespace pass again on an AST it is given;
 * it already ran in `parse`. Marking every text as not blank and dropping
 * the `~` flags makes that second pass change nothing.
 */
function settle(program: Program): void {
  for (const node of program.body) {
    const any = node as unknown as Record<string, unknown>
    if (node.type === 'ContentStatement') (node as unknown as Content).original = '\u0000'
    for (const key of ['strip', 'openStrip', 'inverseStrip', 'closeStrip']) if (any[key]) any[key] = { open: false, close: false }
    const block = node as Block
    if (block.program) settle(block.program)
    if (block.inverse) settle(block.inverse)
  }
}
