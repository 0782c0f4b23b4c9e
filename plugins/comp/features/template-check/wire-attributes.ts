import { createRequire } from 'node:module'
import type { Parser as HtmlParser } from 'htmlparser2'
import { nearest } from '../../../../core/index.ts'
import type { TemplateMistake } from './template-names.ts'

/** What a component's markup may call and bind. */
export interface ActionScope {
  /** The component class's name, for messages. */
  readonly owner: string
  /** The methods the browser may call (`callable`): actions. */
  readonly actions: ReadonlySet<string>
  /** Its public properties: what `wire:model` may bind. */
  readonly properties: ReadonlySet<string>
}

/**
 * `wire:<event>` directives whose value is an action: Kiln's own (`click`,
 * `submit`, `init`, `poll`, `intersect`) and the DOM events a component
 * listens for. Other `wire:` names are directives (`wire:loading`,
 * `wire:target`...) or an app's own (`comp.directive`), never checked.
 */
const ACTION_DIRECTIVES = new Set([
  'click',
  'submit',
  'init',
  'poll',
  'intersect',
  'dblclick',
  'change',
  'input',
  'blur',
  'focus',
  'keydown',
  'keyup',
  'keypress',
  'mouseenter',
  'mouseleave',
  'contextmenu',
])

let parserClass: typeof HtmlParser | undefined

/** htmlparser2's Parser, loaded with `require` (an ES module that Node 20.19+ requires) so the check stays synchronous. */
function loadParser(): typeof HtmlParser {
  return (parserClass ??= (createRequire(import.meta.url)('htmlparser2') as typeof import('htmlparser2')).Parser)
}

/**
 * The actions and properties a template's markup names that its component
 * does not have: `wire:click="save"` (and `wire:submit`, `wire:<event>`,
 * `wire:poll`, `wire:init`), `$wire.save()` in an Alpine `x-on:`/`@`/
 * `x-init` attribute, and the property at the start of `wire:model`. `$`
 * magics (`$refresh`, `$set(...)`) and names written with `{{…}}` are the
 * browser's or dynamic, and are left alone. Lines count from 1 in `source`.
 *
 * @example
 * ```ts
 * wireAttributeMistakes('<button wire:click="incremnt">+</button>', { owner: 'Counter', actions: new Set(['increment']), properties: new Set(['count']) })
 * // [{ line: 1, message: 'wire:click="incremnt": Counter has no action "incremnt". Did you mean "increment"?' }]
 * ```
 */
export function wireAttributeMistakes(source: string, scope: ActionScope): TemplateMistake[] {
  const mistakes: TemplateMistake[] = []
  const lineAt = (index: number) => source.slice(0, index).split('\n').length
  const Parser = loadParser()
  const parser: HtmlParser = new Parser(
    {
      onattribute(name, value) {
        const line = lineAt(parser.startIndex)
        const written = `${name}="${value}"`
        if (name.startsWith('wire:')) {
          const directive = name.slice(5).split('.')[0]!
          if (directive === 'model') {
            const property = /^\s*([A-Za-z_][\w]*)/.exec(value)?.[1]
            if (property && !scope.properties.has(property)) {
              const suggestion = nearest(property, [...scope.properties])
              mistakes.push({ line, message: `${written}: ${scope.owner} has no property "${property}".${didYouMean(suggestion)}` })
            }
          } else if (ACTION_DIRECTIVES.has(directive)) {
            const action = /^\s*([A-Za-z_][\w]*)\s*(?:\(|$)/.exec(value)?.[1]
            if (action) checkAction(action, written, line)
          }
          return
        }
        if (name.startsWith('x-on:') || name.startsWith('@') || name === 'x-init') {
          for (const match of value.matchAll(/\$wire\.([A-Za-z_][\w]*)\s*\(/g)) checkAction(match[1]!, written, line)
        }
      },
    },
    { lowerCaseAttributeNames: false },
  )
  const checkAction = (action: string, written: string, line: number) => {
    if (scope.actions.has(action)) return
    const suggestion = nearest(action, [...scope.actions])
    mistakes.push({ line, message: `${written}: ${scope.owner} has no action "${action}" (a public method the browser may call).${didYouMean(suggestion)}` })
  }
  parser.end(source)
  return mistakes
}

function didYouMean(suggestion: string | undefined): string {
  return suggestion ? ` Did you mean "${suggestion}"?` : ''
}
