import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import Handlebars from 'handlebars'
import type { Application, CheckProblem } from '../../../../core/index.ts'
import { preprocessed, viewsRoot } from './component-templates.ts'
import { templateNameMistakes } from './template-names.ts'

/**
 * The app's other views (pages, layouts, partials, mails), checked for
 * what can be known without their data: that they parse, that a name
 * called with arguments is a helper, and that `@comp('name')` names a
 * registered component. Their data comes from whoever renders them, so
 * the names they read are not checked. `checked` are the files already
 * checked as a component's template.
 *
 * @example
 * ```ts
 * pageViewMistakes(app, new Set(), helpers, new Set(['counter'])) // [{ file: '/srv/app/resources/views/home.hbs', line: 3, message: 'The view home nests the component "countr", …' }]
 * ```
 */
export function pageViewMistakes(
  app: Application,
  checked: ReadonlySet<string>,
  helpers: ReadonlySet<string>,
  components: ReadonlySet<string>,
): CheckProblem[] {
  const root = viewsRoot(app)
  const problems: CheckProblem[] = []
  for (const file of hbsFiles(root)) {
    if (checked.has(file)) continue
    const name = relative(root, file)
      .replace(/\\/g, '/')
      .replace(/\.hbs$/, '')
    let ast: hbs.AST.Program
    try {
      ast = Handlebars.parse(preprocessed(app, readFileSync(file, 'utf8'), name))
    } catch (error) {
      const line = Number(/on line (\d+)/.exec(String(error))?.[1] ?? 1)
      problems.push({ file, line, message: `The view ${name} does not parse: ${(error as Error).message.split('\n')[0]}` })
      continue
    }
    const scope = { owner: `the view ${name}`, subject: `The view ${name}`, names: new Set<string>(), open: true, helpers, components }
    for (const mistake of templateNameMistakes(ast, scope)) problems.push({ file, line: mistake.line, message: mistake.message })
  }
  return problems
}

function hbsFiles(dir: string): string[] {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((entry) => (entry.isDirectory() ? hbsFiles(join(dir, entry.name)) : entry.name.endsWith('.hbs') ? [join(dir, entry.name)] : []))
}
