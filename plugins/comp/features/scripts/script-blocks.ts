import { createHash } from 'node:crypto'

/** The modules of `@script` blocks seen by this process, by the hash in their address. */
const modules = new Map<string, string>()

// A lookbehind, as for `@comp`: an address such as `me@script.example` is not a directive.
const SCRIPT_BLOCK = /(?<![\w@.])@script\b([\s\S]*?)(?<![\w@.])@endscript\b/g
const ASSETS_BLOCK = /(?<![\w@.])@assets\b([\s\S]*?)(?<![\w@.])@endassets\b/g
const SCRIPT_TAG = /^<script\b[^>]*>([\s\S]*)<\/script\s*>$/i
// `import x from '…'`, `import { a, b } from "…"`, `import * as m from '…'`, `import '…'`: only at the start of the block.
const LEADING_IMPORT = /^\s*import\s*(?:[\w$*{},\s]+?\s*from\s*)?(['"])[^'"\n]+\1[ \t]*;?/

/**
 * The hash that names a block (in the script's address, or the assets' key):
 * from the block's text alone, so every process of an app names it alike.
 */
function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20)
}

/**
 * The ES module a `@script` block is served as: its `import` lines first,
 * then the rest inside `run($wire, $js)`, which the browser calls with the
 * component's `$wire` (also `this`) and its `$wire.$js` once per component
 * in the page.
 *
 * @example
 * ```ts
 * scriptModule("import confetti from '/confetti.js'\n$wire.count = 1")
 * // "import confetti from '/confetti.js'\nexport async function run($wire, $js) {\n$wire.count = 1\n}\n"
 * ```
 */
export function scriptModule(block: string): string {
  let body = block.trim()
  const tag = SCRIPT_TAG.exec(body)
  if (tag) body = tag[1]!
  const imports: string[] = []
  for (let match = LEADING_IMPORT.exec(body); match; match = LEADING_IMPORT.exec(body)) {
    imports.push(match[0].trim())
    body = body.slice(match[0].length)
  }
  return `${imports.map((line) => `${line}\n`).join('')}export async function run($wire, $js) {\n${body.replace(/^\s*\n/, '').trimEnd()}\n}\n`
}

/**
 * The preprocessor of `@script … @endscript` and `@assets … @endassets` in
 * views and single-file templates. A script block is taken out of the
 * template (it is JavaScript, never Handlebars) and kept as a module under
 * the hash of its text; `{{compScript "<hash>"}}` stays in its place. An
 * assets block becomes `{{#compAssets "<key>"}}…{{/compAssets}}`, its tags
 * rendered as Handlebars like the rest of the view.
 *
 * @example
 * ```ts
 * scriptDirectives('<div></div>\n@script\n<script>$wire.count = 1</script>\n@endscript')
 * // '<div></div>\n{{compScript "3f…"}}'
 * ```
 */
export function scriptDirectives(source: string): string {
  if (!source.includes('@script') && !source.includes('@assets')) return source
  return source
    .replace(SCRIPT_BLOCK, (_match, block: string) => {
      const module = scriptModule(block)
      const hash = hashOf(module)
      modules.set(hash, module)
      return `{{compScript "${hash}"}}`
    })
    .replace(ASSETS_BLOCK, (_match, block: string) => `{{#compAssets "${hashOf(block.trim())}"}}${block.trim()}{{/compAssets}}`)
}

/**
 * The module of a `@script` block by its hash, if this process has compiled
 * the template that holds it.
 *
 * @example
 * ```ts
 * scriptModuleByHash('3f0c…') // 'export async function run($wire, $js) {…}'
 * ```
 */
export function scriptModuleByHash(hash: string): string | undefined {
  return modules.get(hash)
}
