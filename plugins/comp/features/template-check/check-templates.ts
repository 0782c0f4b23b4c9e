import Handlebars from 'handlebars'
import type { Application, CheckProblem } from '../../../../core/index.ts'
import { Component } from '../../component.ts'
import { featureTemplateNames } from '../../extension/installed-features.ts'
import { callable } from '../../protocol/calls.ts'
import type { ComponentClass, ComponentRegistry } from '../../registry/registry.ts'
import { metaOf } from '../../state/class-meta.ts'
import { publicProperties } from '../../state/state.ts'
import { componentTemplates } from './component-templates.ts'
import { loadParser, methodReturns } from './method-returns.ts'
import { pageViewMistakes } from './page-views.ts'
import { HANDLEBARS_HELPERS, templateNameMistakes } from './template-names.ts'
import { wireAttributeMistakes } from './wire-attributes.ts'

/**
 * Every registered component's templates, checked against its class
 * without rendering anything: the names they read (properties, computed
 * properties, `with()` and `render()` data, helpers, names every view has,
 * block parameters), the actions of `wire:click`/`wire:submit`/`$wire.x()`,
 * the properties of `wire:model`, and the components of `@comp(...)`; and
 * the app's other views as far as they can be without their data. Each
 * mistake names its file and line and the nearest correct name. Names the
 * check cannot see are declared once in `config/comp.ts`
 * (`template_names`), or by a feature (`templateNames`).
 *
 * @example
 * ```ts
 * const problems = checkComponentTemplates(app, app.service('comp').registry)
 * ```
 */
export function checkComponentTemplates(app: Application, registry: ComponentRegistry): CheckProblem[] {
  const helpers = new Set([...HANDLEBARS_HELPERS, ...app.views.helpers.keys()])
  const everywhere = ['errors', ...app.views.dataNames(), ...featureTemplateNames(), ...app.config.get<string[]>('comp.template_names', [])]
  const components = new Set(registry.all())
  let ts: ReturnType<typeof loadParser> | null = null
  const parser = () => (ts === null ? (ts = loadParser(app.root)) : ts)
  const problems: CheckProblem[] = []
  const seen = new Set<string>()
  const checkedFiles = new Set<string>()
  for (const name of registry.all()) {
    const Class = registry.get(name)!
    const own = classNames(Class)
    if (!own) continue
    const withData = typeof Class.prototype.with === 'function' ? methodReturns(parser(), Class.prototype.with) : undefined
    const needsParser = typeof Class.prototype.render === 'function'
    for (const template of componentTemplates(app, needsParser ? parser() : undefined, name, Class)) {
      const names = new Set([...everywhere, ...own.properties, ...own.computed, ...(withData?.names ?? []), ...(template.data?.names ?? [])])
      const open = Boolean(withData?.open || template.data?.open)
      const at = (line: number) => template.firstLine + line - 1
      checkedFiles.add(template.file)
      let ast: hbs.AST.Program
      try {
        ast = Handlebars.parse(template.source)
      } catch (error) {
        const line = Number(/on line (\d+)/.exec(String(error))?.[1] ?? 1)
        problems.push({ file: template.file, line: at(line), message: `${Class.name}'s template does not parse: ${(error as Error).message.split('\n')[0]}` })
        continue
      }
      const mistakes = [
        ...templateNameMistakes(ast, { owner: Class.name, names, open, helpers, components, properties: new Set(own.properties) }),
        ...wireAttributeMistakes(template.source, { owner: Class.name, actions: own.actions, properties: new Set(own.properties) }),
      ]
      for (const mistake of mistakes) {
        const problem = { file: template.file, line: at(mistake.line), message: mistake.message }
        // A subclass renders its parent's template: one report per place.
        const key = `${problem.file}:${problem.line}:${problem.message.replaceAll(Class.name, '')}`
        if (seen.has(key)) continue
        seen.add(key)
        problems.push(problem)
      }
    }
  }
  problems.push(...pageViewMistakes(app, checkedFiles, helpers, components))
  return problems.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0))
}

/** A class's own names: public properties (of a fresh instance), computed properties, callable actions; undefined when it cannot be built. */
function classNames(Class: ComponentClass): { properties: string[]; computed: Iterable<string>; actions: Set<string> } | undefined {
  let instance: Component
  try {
    instance = new Class()
  } catch {
    // A class that cannot be built without a request fails when it renders, with its own error.
    return undefined
  }
  const actions = new Set<string>()
  for (let proto: object | null = Class.prototype; proto && proto !== Component.prototype; proto = Object.getPrototypeOf(proto))
    for (const method of Object.getOwnPropertyNames(proto)) if (callable(Class, method)) actions.add(method)
  return { properties: publicProperties(instance), computed: metaOf(Class).computed, actions }
}
