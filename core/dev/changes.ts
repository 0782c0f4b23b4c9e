import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What `kiln dev` does for a changed file:
 * - `restart`: a new server process (`.env`, `package.json`, `tsconfig.json`: settings read once per process);
 * - `code`: the app is built again from its modules, imported afresh, in the same process (`app/`, `config/`,
 *   `routes/`, `database/`);
 * - `views`: the view engine forgets that file (a `.hbs` file under `resources/`);
 * - `assets`: nothing to rebuild; open pages reload (any other file under `resources/`).
 */
export type ChangeKind = 'restart' | 'code' | 'views' | 'assets'

const RESTART = new Set(['.env', 'package.json', 'tsconfig.json'])

/**
 * The kind of a change, from the file's path relative to the app's root
 * (with `/` separators).
 *
 * @example
 * ```ts
 * changeKind('resources/views/home.hbs') // 'views'
 * changeKind('routes/web.ts') // 'code'
 * changeKind('.env') // 'restart'
 * ```
 */
export function changeKind(file: string): ChangeKind {
  if (RESTART.has(file)) return 'restart'
  if (file.startsWith('resources/')) return file.endsWith('.hbs') ? 'views' : 'assets'
  return 'code'
}

const COMPONENT_FILE = /^(app\/components|resources\/views\/components)\//

/**
 * How open pages take a set of changes: `components` when every file is a
 * component's class or view (each component on the page renders again from
 * its current state, which it keeps), else `page` (the page reloads).
 *
 * @example
 * ```ts
 * pageRefresh(['resources/views/components/cart.hbs']) // 'components'
 * pageRefresh(['resources/views/layouts/app.hbs']) // 'page'
 * ```
 */
export function pageRefresh(files: string[]): 'components' | 'page' {
  return files.length > 0 && files.every((file) => COMPONENT_FILE.test(file)) ? 'components' : 'page'
}

/**
 * The files of a change as one short phrase for the terminal: the first
 * file saved and how many others (an editor's temporary files, gone by
 * now, are left out unless nothing else remains).
 *
 * @example
 * ```ts
 * describeFiles('/srv/shop', ['routes/web.ts', 'app/models/user.ts']) // 'app/models/user.ts and 1 other file'
 * ```
 */
export function describeFiles(root: string, files: string[]): string {
  const remaining = files.filter((file) => existsSync(join(root, file)))
  const [first, ...rest] = (remaining.length > 0 ? remaining : files).sort()
  return rest.length === 0 ? first! : `${first} and ${rest.length} other file${rest.length > 1 ? 's' : ''}`
}
