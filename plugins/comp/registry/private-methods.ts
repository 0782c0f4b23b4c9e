/**
 * Methods marked `private` or `protected` in a component's TypeScript
 * source. Those words are erased before the code runs, so the browser can
 * still call such a method; `#name()` is the private that holds at runtime.
 * Kiln reads each discovered component's file at boot in development and
 * warns about these (a lint, not a rule: the check needs the source, which
 * a built app may not ship).
 *
 * It reads the text, not the syntax tree: a method is a line that starts
 * with `private` or `protected` and names something followed by `(` or `<`
 * (fields and getters are not callable, so they do not count).
 *
 * @example
 * ```ts
 * tsPrivateMethods('class A extends Component {\n  private helper() {}\n}') // ['helper']
 * ```
 */
export function tsPrivateMethods(source: string): string[] {
  const found: string[] = []
  const pattern = /^[ \t]*(?:private|protected)\s+(?:override\s+)?(?:async\s+)?(?:\*\s*)?([A-Za-z_$][\w$]*)\s*[(<]/gm
  for (const match of source.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(pattern)) if (!found.includes(match[1]!)) found.push(match[1]!)
  return found
}
