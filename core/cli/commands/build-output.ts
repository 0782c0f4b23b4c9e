import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path'

/** The list of files a build wrote, kept in the build folder so the next build knows what is its own. */
export const BUILD_MANIFEST = '.kiln-build.json'

/**
 * What the operator keeps in a build folder and no build ever writes: the
 * settings (`.env` and other dot files), the installed dependencies, the
 * running app's state (`storage/`) and SQLite files. A build folder made
 * before the manifest existed is cleaned of everything else.
 */
const OPERATORS = [/^node_modules(\/|$)/, /^storage(\/|$)/, /(^|\/)\.(?!env\.example$)[^/]+/, /\.sqlite3?(-\w+)?$/, /\.db$/]

/**
 * The files of the previous build in `out`, relative with `/`: its manifest,
 * or, for a folder built before there was one, every file that is not the
 * operator's. Entries that would leave the folder or touch the operator's
 * files are ignored, whatever the manifest says.
 *
 * @example
 * ```ts
 * previousBuild('/srv/shop/build') // ['config/app.js', 'routes/web.js', ...]
 * ```
 */
export function previousBuild(out: string): string[] {
  if (!existsSync(out)) return []
  const manifest = join(out, BUILD_MANIFEST)
  let files: unknown
  if (existsSync(manifest)) {
    try {
      files = (JSON.parse(readFileSync(manifest, 'utf8')) as { files?: unknown }).files
    } catch {
      files = undefined
    }
  }
  const listed = Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : filesUnder(out)
  return listed.filter((file) => isBuildFile(file))
}

/**
 * Removes the files of the previous build that this one does not write (a
 * route file deleted from the sources, say), then the folders they leave
 * empty. Returns how many files went.
 *
 * @example
 * ```ts
 * removeStale('/srv/shop/build', previous, new Set(['config/app.js'])) // 1
 * ```
 */
export function removeStale(out: string, previous: readonly string[], next: ReadonlySet<string>): number {
  let removed = 0
  for (const file of previous) {
    if (next.has(file)) continue
    const path = join(out, file)
    if (!existsSync(path) || !statSync(path).isFile()) continue
    rmSync(path)
    removed++
    // Up to the build folder itself: only folders this removal emptied.
    for (let dir = dirname(path); dir !== out && dir.startsWith(out + sep); dir = dirname(dir)) {
      if (readdirSync(dir).length > 0) break
      rmdirSync(dir)
    }
  }
  return removed
}

/** Records what this build wrote. @example `writeBuildList('/srv/shop/build', ['config/app.js'])` */
export function writeBuildList(out: string, files: Iterable<string>): void {
  writeFileSync(join(out, BUILD_MANIFEST), `${JSON.stringify({ files: [...files].sort() }, null, 2)}\n`)
}

/**
 * What the operator put in the build folder and the build left alone, for
 * the closing lines: `.env`, `node_modules/`, `storage/` with something in
 * it, SQLite files.
 *
 * @example
 * ```ts
 * keptInBuild('/srv/shop/build') // ['.env', 'node_modules/']
 * ```
 */
export function keptInBuild(out: string): string[] {
  const kept: string[] = []
  for (const name of ['.env', 'node_modules', 'storage']) {
    const path = join(out, name)
    if (!existsSync(path)) continue
    const folder = statSync(path).isDirectory()
    if (folder && readdirSync(path).length === 0) continue
    kept.push(folder ? `${name}/` : name)
  }
  const databases = existsSync(join(out, 'database')) ? filesUnder(join(out, 'database')).filter((file) => /\.sqlite3?$|\.db$/.test(file)) : []
  return [...kept, ...databases.map((file) => `database/${file}`)]
}

/** True for a path inside the build folder that a build may have written (never the operator's). */
function isBuildFile(file: string): boolean {
  if (file === '' || isAbsolute(file) || file.includes('\\')) return false
  const normal = normalize(file).split(sep).join('/')
  if (normal !== file || normal.startsWith('../') || normal === '..' || normal === BUILD_MANIFEST) return false
  return !OPERATORS.some((pattern) => pattern.test(file))
}

/** Every file under `dir`, relative with `/`, without descending into its `node_modules` or `storage` (never a build's). */
function filesUnder(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return dir === root && (entry.name === 'node_modules' || entry.name === 'storage') ? [] : filesUnder(path, root)
    return entry.isFile() ? [relative(root, path).split(sep).join('/')] : []
  })
}
