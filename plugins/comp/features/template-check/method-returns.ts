import { createRequire } from 'node:module'
import { join } from 'node:path'
import type * as TypeScript from 'typescript'

/** What a method's `return` statements give, read from its source without running it. */
export interface Returned {
  /** Keys of the object literals it returns (`with()`'s data, `view(name, data)`'s data). */
  readonly names: ReadonlySet<string>
  /** Some return gives data the reading cannot list (a variable, a spread): any name may be there. */
  readonly open: boolean
  /** For `render()`: the view names it returns (`'components/x'`, `view('components/x', …)`). */
  readonly views: readonly string[]
  /** For `render()`: some return names its view in a way the reading cannot follow. */
  readonly unknownView: boolean
}

const NOTHING: Returned = { names: new Set(), open: false, views: [], unknownView: false }
const UNREADABLE: Returned = { names: new Set(), open: true, views: [], unknownView: true }

/**
 * Loads TypeScript's parser: the app's own (a development dependency of every
 * new app), else the one beside Kiln; undefined where neither is installed
 * (then `with()` and `render()` are not read, and their data is open).
 *
 * @example
 * ```ts
 * const ts = loadParser('/srv/app')
 * ```
 */
export function loadParser(root: string): typeof TypeScript | undefined {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)('typescript') as typeof TypeScript
    } catch {
      // Not installed beside this root: try the next one.
    }
  }
  return undefined
}

/**
 * Reads what a component method returns, from its source
 * (`Function.prototype.toString`, so a built app's JavaScript reads as
 * well as TypeScript): the keys of returned object literals, and for
 * `render()` the view names of `return 'name'` and `return view('name',
 * { … })`. Returns inside nested functions do not count.
 *
 * @example
 * ```ts
 * methodReturns(ts, Todos.prototype.with) // { names: Set { 'todos' }, open: false, views: [], unknownView: false }
 * ```
 */
export function methodReturns(ts: typeof TypeScript | undefined, method: unknown): Returned {
  if (typeof method !== 'function') return NOTHING
  if (!ts) return UNREADABLE
  const text = Function.prototype.toString.call(method)
  // A method's source is a class member (`async with() {…}`); a function's or an arrow's is an expression.
  const expression = /^(?:async\s+)?function\b/.test(text) || /^(?:async\s*)?(?:\(|[\w$]+\s*=>)/.test(text)
  const wrapped = expression ? `(${text})` : `class __ { ${text} }`
  const file = ts.createSourceFile('method.ts', wrapped, ts.ScriptTarget.Latest, false)
  const names = new Set<string>()
  const views: string[] = []
  let open = false
  let unknownView = false
  const readObject = (node: TypeScript.Expression | undefined) => {
    const value = node && unwrap(ts, node)
    if (!value) return
    if (!ts.isObjectLiteralExpression(value)) {
      open = true
      return
    }
    for (const property of value.properties) {
      const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : undefined)
      if (ts.isSpreadAssignment(property) || name === undefined) open = true
      else names.add(name)
    }
  }
  const readReturn = (expression: TypeScript.Expression) => {
    const value = unwrap(ts, expression)
    if (ts.isStringLiteralLike(value)) {
      if (value.text.trimStart().startsWith('<')) unknownView = true
      else views.push(value.text)
      return
    }
    if (ts.isCallExpression(value)) {
      const callee = value.expression
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : ''
      const first = value.arguments[0] && unwrap(ts, value.arguments[0])
      if (name === 'view' && first && ts.isStringLiteralLike(first)) {
        views.push(first.text)
        readObject(value.arguments[1])
        return
      }
      unknownView = true
      open = true
      return
    }
    unknownView = true
    readObject(value)
  }
  const visit = (node: TypeScript.Node, depth: number) => {
    if (ts.isReturnStatement(node) && node.expression && depth === 1) readReturn(node.expression)
    const nested = ts.isFunctionLike(node)
    ts.forEachChild(node, (child) => visit(child, nested ? depth + 1 : depth))
  }
  visit(file, 0)
  return { names, open, views, unknownView }
}

/** The value under parentheses, `await`, `as` and `satisfies`. */
function unwrap(ts: typeof TypeScript, node: TypeScript.Expression): TypeScript.Expression {
  let current = node
  while (ts.isParenthesizedExpression(current) || ts.isAwaitExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current))
    current = current.expression
  return current
}
