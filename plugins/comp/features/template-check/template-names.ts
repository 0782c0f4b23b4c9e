import { nearest } from '../../../../core/index.ts'

type Node = hbs.AST.Node
type Program = hbs.AST.Program
type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression

/** What a component's template may read, and what it may name. */
export interface TemplateScope {
  /** The component class's name, for messages. */
  readonly owner: string
  /** What the messages call the template: `Counter's template` (the default), `The view home`. */
  readonly subject?: string
  /** Names the component's data has: its properties, computed properties, `with()` data, names every view has. */
  readonly names: ReadonlySet<string>
  /** The data has names the checker cannot list (a `with()` returning a variable): names are not checked. */
  readonly open: boolean
  /** Helpers registered on the views (the kernel's, the plugins', the app's) and Handlebars' own. */
  readonly helpers: ReadonlySet<string>
  /** Registered component names, for `{{comp "name"}}` / `@comp('name')`. */
  readonly components: ReadonlySet<string>
  /** The component's public properties, for a `wire:model="path"` it puts on a child's tag; absent outside a component. */
  readonly properties?: ReadonlySet<string>
}

/** One mistake, at a line of the template (1-based). */
export interface TemplateMistake {
  readonly line: number
  readonly message: string
}

/** Blocks that change the context: inside them a bare name reads the item, which the checker cannot know. */
const NEW_CONTEXT = new Set(['each', 'with'])
/** Names a block helper puts in scope inside its block: the kernel's `{{#error "field"}}` gives `message`. */
const BLOCK_NAMES: Readonly<Record<string, readonly string[]>> = { error: ['message'] }

/**
 * The names a template reads that its component does not have, scope-aware,
 * from Handlebars' syntax tree: block parameters (`as |todo|`) and what a
 * block gives (`message` in `{{#error}}`) are in scope inside their block;
 * inside `{{#each}}` and `{{#with}}` a bare name reads the item, so only
 * `../name` and block parameters are checked there. A name called with
 * arguments (`{{money total}}`) must be a helper; `{{comp "name"}}` must
 * name a registered component. `@data` variables are Handlebars' own.
 *
 * @example
 * ```ts
 * templateNameMistakes(Handlebars.parse('<p>{{titel}}</p>'), scope)
 * // [{ line: 1, message: 'Counter\'s template reads "titel", which Counter does not have. Did you mean "title"?' }]
 * ```
 */
export function templateNameMistakes(ast: Program, scope: TemplateScope): TemplateMistake[] {
  const mistakes: TemplateMistake[] = []
  const subject = scope.subject ?? `${scope.owner}'s template`
  // Contexts: the component's data first (closed unless open), then each `each`/`with` block's item (always open).
  const contexts: boolean[] = [scope.open]
  const params: string[][] = []

  const inParams = (name: string) => params.some((frame) => frame.includes(name))
  const report = (node: Node, message: string, candidates: Iterable<string>, name: string) => {
    const suggestion = nearest(name, [...new Set(candidates)])
    mistakes.push({ line: node.loc?.start.line ?? 1, message: `${message}${suggestion ? ` Did you mean "${suggestion}"?` : ''}` })
  }

  const checkPath = (path: hbs.AST.PathExpression, called: boolean) => {
    const head = path.parts[0]
    if (path.data || head === undefined) return
    const explicitContext = /^(?:this|\.)(?:[./]|$)/.test(path.original)
    if (!explicitContext && path.depth === 0 && (inParams(head) || scope.helpers.has(head))) return
    if (called && !explicitContext) {
      report(path, `${subject} calls "${head}", which is not a helper.`, scope.helpers, head)
      return
    }
    const open = contexts[Math.max(0, contexts.length - 1 - path.depth)]
    if (open || scope.names.has(head)) return
    const candidates = [...scope.names, ...(explicitContext ? [] : [...scope.helpers, ...params.flat()])]
    report(path, `${subject} reads "${head}", which ${scope.owner} does not have.`, candidates, head)
  }

  // A parent's `wire:model="title"` on a child binds the parent's property `title`.
  const checkModel = (value: hbs.AST.Expression) => {
    const property = value.type === 'StringLiteral' ? /^\s*([A-Za-z_]\w*)/.exec((value as hbs.AST.StringLiteral).value)?.[1] : undefined
    if (!property || !scope.properties || scope.properties.has(property)) return
    report(value, `${subject} binds wire:model="${property}" on a child, and ${scope.owner} has no property "${property}".`, scope.properties, property)
  }

  const checkExpression = (expression: hbs.AST.Expression) => {
    if (expression.type === 'PathExpression') checkPath(expression as hbs.AST.PathExpression, false)
    else if (expression.type === 'SubExpression') checkCall(expression as hbs.AST.SubExpression)
  }

  const checkCall = (call: Call) => {
    const args = [...call.params, ...(call.hash?.pairs.map((pair) => pair.value) ?? [])]
    if (call.path.type === 'PathExpression') {
      const path = call.path as hbs.AST.PathExpression
      checkPath(path, args.length > 0)
      const first = call.params[0]
      if (path.original === 'comp' && first?.type === 'StringLiteral') {
        const name = (first as hbs.AST.StringLiteral).value
        if (!scope.components.has(name)) report(first, `${subject} nests the component "${name}", which is not registered.`, scope.components, name)
        for (const pair of call.hash?.pairs ?? []) if (/^wire:model(\.|$)/.test(pair.key)) checkModel(pair.value)
      }
    }
    for (const arg of args) checkExpression(arg)
  }

  const walk = (program: Program | undefined) => {
    for (const statement of program?.body ?? []) visit(statement)
  }

  const visit = (node: Node) => {
    switch (node.type) {
      case 'MustacheStatement':
        checkCall(node as hbs.AST.MustacheStatement)
        return
      case 'BlockStatement': {
        const block = node as hbs.AST.BlockStatement
        checkCall(block)
        const name = block.path.type === 'PathExpression' ? (block.path as hbs.AST.PathExpression).original : ''
        const changes = NEW_CONTEXT.has(name)
        if (changes) contexts.push(true)
        params.push([...(block.program?.blockParams ?? []), ...(BLOCK_NAMES[name] ?? [])])
        walk(block.program)
        params.pop()
        if (changes) contexts.pop()
        // `{{else}}` renders with the data outside the block.
        walk(block.inverse)
        return
      }
      case 'PartialStatement':
      case 'PartialBlockStatement': {
        const partial = node as hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement
        for (const arg of [...partial.params, ...(partial.hash?.pairs.map((pair) => pair.value) ?? [])]) checkExpression(arg)
        if (node.type === 'PartialBlockStatement') walk((node as hbs.AST.PartialBlockStatement).program)
        return
      }
      default:
    }
  }

  walk(ast)
  return mistakes
}

/**
 * Handlebars' own helpers, in every template whatever is registered.
 *
 * @example
 * ```ts
 * HANDLEBARS_HELPERS.includes('each') // true
 * ```
 */
export const HANDLEBARS_HELPERS: readonly string[] = ['if', 'unless', 'each', 'with', 'lookup', 'log', 'helperMissing', 'blockHelperMissing']
