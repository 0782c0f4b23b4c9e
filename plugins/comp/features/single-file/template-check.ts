import { relative } from 'node:path'
import Handlebars from 'handlebars'
import { KilnError } from '../../../../core/index.ts'
import type { ComponentClass } from '../../registry/registry.ts'
import { ComponentTemplate } from './html-template.ts'

/** Templates that parsed: each is checked once, however many classes share it (a subclass inherits its parent's). */
const parsed = new WeakSet<ComponentTemplate>()

/**
 * A component class's `static template` source, checked: undefined when the
 * class has none; a `KilnError` (`E_COMP_TEMPLATE`) naming the class and
 * the file and line when it is not a template made with `html` or does not
 * parse as Handlebars. The parse runs once per template.
 *
 * @example
 * ```ts
 * const source = templateSource(Counter) // '<div>{{count}}</div>'
 * ```
 */
export function templateSource(Class: ComponentClass): string | undefined {
  const template: unknown = Class.template
  if (template === undefined) return undefined
  if (!(template instanceof ComponentTemplate))
    throw new KilnError(`${Class.name}.template must be written with the html tag: static template = html\`<div>…</div>\`.`, { code: 'E_COMP_TEMPLATE' })
  if (!parsed.has(template)) {
    try {
      Handlebars.parse(template.source)
    } catch (error) {
      throw parseError(Class, template, error)
    }
    parsed.add(template)
  }
  return template.source
}

/** The error for a template that does not parse, at the file line of the fault (the template's line counted from the `html` call). */
function parseError(Class: ComponentClass, template: ComponentTemplate, error: unknown): KilnError {
  const reason = error instanceof Error ? error.message : String(error)
  const templateLine = Number(/on line (\d+)/.exec(reason)?.[1] ?? (error as { lineNumber?: number }).lineNumber ?? 1)
  const at = /^(.*):(\d+)$/.exec(template.location ?? '')
  const where = at ? ` (${relative(process.cwd(), at[1]!) || at[1]}:${Number(at[2]) + templateLine - 1})` : ''
  return new KilnError(`The template of ${Class.name}${where} does not parse: ${reason}`, { code: 'E_COMP_TEMPLATE', cause: error })
}
