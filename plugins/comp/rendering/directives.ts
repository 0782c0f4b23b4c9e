/**
 * The template directives of components, turned into the handlebars helpers
 * before a template compiles:
 *
 * - `@compScripts` → `{{{compScripts}}}`
 * - `@comp('todo-item', todo=todo, key=todo.id, editable=true)` →
 *   `{{{comp "todo-item" todo=todo key=todo.id editable=true}}}`
 *
 * Arguments are `name=value` pairs (a name may hold `-`: `data-test`; and a parent's `wire:model="path"`,
 * modifiers included, on a child): a value is a path into the view's data,
 * a number, `true`/`false`/`null`, or a quoted string (single or double
 * quotes). Anything else is left untouched for handlebars to report.
 *
 * @example
 * ```ts
 * compDirectives("@comp('counter', start=5)") // '{{{comp "counter" start=5}}}'
 * ```
 */
export function compDirectives(source: string): string {
  if (!source.includes('@comp')) return source
  return source.replace(/(?<![\w@.])@compScripts\b/g, '{{{compScripts}}}').replace(
    // A lookbehind, not a captured lead: two directives side by side (`@comp('a')@comp('b')`) both convert.
    /(?<![\w@.])@comp\(\s*(['"])([\w.-]+)\1\s*((?:,\s*(?:wire:model(?:\.[\w-]+)*|[A-Za-z_][\w-]*)\s*=\s*(?:'[^'\n]*'|"[^"\n]*"|[\w.@/-]+)\s*)*)\)/g,
    (_match, _quote: string, name: string, args: string) => {
      // Handlebars takes both quote styles, so string values pass through as written.
      const pairs = [...args.matchAll(/,\s*(wire:model(?:\.[\w-]+)*|[A-Za-z_][\w-]*)\s*=\s*('[^'\n]*'|"[^"\n]*"|[\w.@/-]+)/g)].map(
        // A key with dots (wire:model.live) is a literal segment for handlebars: [wire:model.live].
        ([, key, value]) => `${key!.includes('.') ? `[${key}]` : key}=${value}`,
      )
      return `{{{comp "${name}"${pairs.map((pair) => ` ${pair}`).join('')}}}}`
    },
  )
}
