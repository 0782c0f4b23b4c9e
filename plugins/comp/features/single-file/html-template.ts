import { fileURLToPath } from 'node:url'
import { KilnError } from '../../../../core/index.ts'

/**
 * A component's template, written in its own class file with the `html`
 * tag: Handlebars source plus where it was written (for error messages).
 * A class, not a string, so `static template` is checked by `tsc`: a plain
 * string there is a type error, not a view name read as markup.
 *
 * @example
 * ```ts
 * const template: ComponentTemplate = html`<p>{{count}}</p>`
 * template.source // '<p>{{count}}</p>'
 * ```
 */
export class ComponentTemplate {
  /** Nominal: a protected member makes `tsc` refuse an object that merely looks alike. */
  protected readonly kind = 'component-template'

  constructor(
    /** The Handlebars source, as written, without the blank space around it. */
    readonly source: string,
    /** `file:line` of the template's first line, when the stack gave the `html` call's. */
    readonly location?: string,
  ) {}

  /** The source, so a template can be logged or compared as text. @example `String(html\`<p></p>\`)` */
  toString(): string {
    return this.source
  }
}

/**
 * Tags a component's template: `static template = html\`<div>…</div>\``.
 * The text between the backticks is Handlebars (`{{count}}`, `{{#each}}`,
 * `{{#island}}`, partials), rendered with the component's data on every
 * render; editors highlight the tag `html` as HTML (lit-html/"html"
 * highlighting plugins). `${}` interpolations are refused: by `tsc`
 * (the values are typed `never`) and at run time. They would be evaluated
 * once, when the class is defined, and spliced unescaped into the source,
 * so they would look like, but never be, per-render data: write
 * `{{name}}` instead, and `\${` for a literal `${` (in an Alpine
 * template literal).
 *
 * @param strings the template's text (one part: there are no interpolations)
 * @param values none: any interpolation is a type error
 * @returns the template, with the file and line it was written at
 *
 * @example
 * ```ts
 * import { Component, html } from 'kiln-framework/comp'
 *
 * export default class Counter extends Component {
 *   count = 0
 *   increment() {
 *     this.count++
 *   }
 *   static template = html`
 *     <div><button wire:click="increment">+</button> {{count}}</div>
 *   `
 * }
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: never[]): ComponentTemplate {
  const location = callerLocation()
  if (values.length > 0 || strings.length !== 1)
    throw new KilnError(
      `A component template cannot interpolate \${…}${location ? ` (${location})` : ''}: write {{name}} to show data, or \\\${ for a literal "\${".`,
      {
        code: 'E_COMP_TEMPLATE',
      },
    )
  const source = strings[0]
  // An escape JavaScript cannot cook (`\u` alone, `\01`) leaves no text: say so rather than render nothing.
  if (source === undefined)
    throw new KilnError(`A component template has an invalid escape sequence${location ? ` (${location})` : ''}.`, { code: 'E_COMP_TEMPLATE' })
  // Trimmed so the component's root element is the first thing rendered; the location moves to the first line kept.
  const skipped = source.slice(0, source.length - source.trimStart().length).split('\n').length - 1
  const at = location && /^(.*):(\d+)$/.exec(location)
  return new ComponentTemplate(source.trim(), at ? `${at[1]}:${Number(at[2]) + skipped}` : location)
}

/** `file:line` of the code that called `html`, from the stack (source-mapped when the app runs TypeScript). */
function callerLocation(): string | undefined {
  const frame = new Error().stack?.split('\n')[3]
  const match = frame && /\(?((?:file:\/\/)?[^()\s]+?):(\d+):\d+\)?$/.exec(frame.trim())
  if (!match) return undefined
  const file = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!
  return `${file}:${match[2]}`
}
