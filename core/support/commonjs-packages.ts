import { createRequire } from 'node:module'
import type PicocolorsModule from 'picocolors'
import type * as TsyringeModule from 'tsyringe'

// Three of the packages `import 'kiln-framework'` needs are CommonJS. Imported from an ES module, Node 20 reads each
// one through its ES-module loader, which runs a lexer over the source to find its exports; `require` loads the
// same file as it is. In an installed app (bundled Kiln, plain node), 20 alternated starts: `import 'kiln-framework'`
// 517 -> 452 ms of CPU, 407 -> 394 ms wall (issue 25; bench/NOTES.md, "Start time").
// One `require` for the process, relative to this module, so the app and Kiln share the installed copies: the
// decorators and the root container must come from the same tsyringe whichever way the app imports them.
const load = createRequire(import.meta.url)

// tsyringe checks for the metadata polyfill when it loads, and decorated classes read it when they are defined.
load('reflect-metadata')

/**
 * tsyringe, loaded with `require` (see above): the container Kiln's
 * applications are children of, and the decorators `kiln-framework`
 * re-exports.
 *
 * @example
 * ```ts
 * const child = tsyringe.container.createChildContainer()
 * ```
 */
export const tsyringe = load('tsyringe') as typeof TsyringeModule

/**
 * picocolors, loaded with `require` (see above): the CLI's colours.
 *
 * @example
 * ```ts
 * picocolors.createColors(true).green('ok')
 * ```
 */
export const picocolors = load('picocolors') as typeof PicocolorsModule
