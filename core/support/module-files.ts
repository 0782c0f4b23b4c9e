import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The modules an app folder holds (`app/models`, `app/jobs`,
 * `app/commands`), sub-folders included, in a stable order: `.ts`, `.js`
 * and `.mjs` files, never tests or declaration files. The discoveries of
 * models, jobs and commands all walk their folder with it.
 *
 * @example
 * ```ts
 * for (const file of moduleFiles(join(app.root, 'app/jobs'))) await import(pathToFileURL(file).href)
 * ```
 */
export function moduleFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) return moduleFiles(path)
      return /\.(ts|js|mjs)$/.test(entry) && !/\.(test|d)\.(ts|js)$/.test(entry) ? [path] : []
    })
}
