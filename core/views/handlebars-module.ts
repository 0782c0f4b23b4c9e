import { createRequire } from 'node:module'
import type Handlebars from 'handlebars'

let loaded: typeof Handlebars | undefined

/**
 * Handlebars, loaded when the app makes its view engine (at boot) rather
 * than by `import 'kiln-framework'`: with source-map it is some 45
 * CommonJS modules (issue 25, P6). `require`, so helpers stay synchronous;
 * the object is the one `import Handlebars from 'handlebars'` gives, so a
 * `SafeString` made either way is the same class. @internal
 *
 * @example
 * ```ts
 * return new (handlebars().SafeString)('<b>safe</b>')
 * ```
 */
export function handlebars(): typeof Handlebars {
  return (loaded ??= createRequire(import.meta.url)('handlebars') as typeof Handlebars)
}
