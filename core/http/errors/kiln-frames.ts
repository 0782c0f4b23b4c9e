import { realpathSync } from 'node:fs'
import { kilnPackageRoot } from '../../support/package-root.ts'

/** A stack frame as youch parses it: only what the marking reads and sets. */
export interface ParsedFrame {
  fileName?: string
  type?: 'app' | 'module' | 'native'
}

/**
 * Tells Kiln's own files from the application's in a stack trace, by
 * folder: a file under Kiln's package root (`kilnPackageRoot()`) is
 * Kiln's, wherever that root is. youch alone marks every frame outside
 * `node_modules/` as the app's ("In App"), which is wrong when Kiln is
 * linked from a folder (an app made by `kiln new` from a clone depends on
 * it through `file:`, and Node reports the link's real path) or runs from
 * its own clone. An app inside Kiln's folder (the starter run from a
 * clone, a test's app) keeps its own files as the app's.
 *
 * @example
 * ```ts
 * const isKiln = kilnFileTest('/home/dev/shop', '/home/dev/kiln')
 * isKiln('/home/dev/kiln/core/http/pipeline/pipeline.ts') // true
 * isKiln('/home/dev/shop/routes/web.ts') // false
 * ```
 */
export function kilnFileTest(appRoot: string, kilnRoot: string = kilnPackageRoot()): (fileName: string) => boolean {
  const kiln = folder(kilnRoot)
  const app = folder(appRoot)
  const appInsideKiln = app !== kiln && app.startsWith(kiln)
  return (fileName) => {
    const file = fileName.replaceAll('\\', '/')
    return file.startsWith(kiln) && !(appInsideKiln && file.startsWith(app))
  }
}

/**
 * Marks the frames of Kiln's files as a dependency's (`module`), never the
 * app's: a youch transformer, so the debug page labels only the
 * application's own frames "In App" and opens the first of them.
 *
 * @example
 * ```ts
 * page.useTransformer(markKilnFrames(app.root))
 * ```
 */
export function markKilnFrames(appRoot: string, kilnRoot?: string): (error: { frames: ParsedFrame[] }) => void {
  const isKiln = kilnFileTest(appRoot, kilnRoot)
  return (error) => {
    for (const frame of error.frames) if (frame.type === 'app' && frame.fileName && isKiln(frame.fileName)) frame.type = 'module'
  }
}

/** A folder as stack traces name it: its real path (links resolved, as Node's loader does), with forward slashes and a trailing one. */
function folder(path: string): string {
  let real = path
  try {
    real = realpathSync(path)
  } catch {
    // A folder that does not exist (yet) is compared as written.
  }
  return real.replaceAll('\\', '/').replace(/\/?$/, '/')
}
