import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/** The fields of package.json whose specs npm installs. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const

/**
 * Writes the app's `package.json` (and `package-lock.json`) into the build
 * folder with every relative path spec moved to the new location: a
 * `file:../kiln` or `file:../kiln-framework-1.0.0.tgz`, or a bare `../kiln`,
 * names a path from the app's folder, and `build/` is one folder deeper, so
 * copied unchanged it would make `npm install` in the build link to nothing.
 * Absolute paths, versions, tags, git and URL specs are left as they are.
 *
 * @returns how many specs of `package.json` were rewritten
 * @example
 * writeBuildManifest('/srv/shop', '/srv/shop/build') // "file:../kiln" becomes "file:../../kiln"
 */
export function writeBuildManifest(root: string, out: string): number {
  let moved = 0
  const move = (spec: string): string => {
    const next = relocateSpec(spec, root, out)
    if (next !== spec) moved++
    return next
  }
  const manifest = readJson(join(root, 'package.json'))
  if (manifest) {
    for (const field of DEPENDENCY_FIELDS) relocateRecord(manifest[field], move)
    writeJson(join(out, 'package.json'), manifest)
  }
  const inManifest = moved
  const lock = readJson(join(root, 'package-lock.json'))
  if (lock) {
    relocateLock(lock, root, out, move)
    writeJson(join(out, 'package-lock.json'), lock)
  }
  return inManifest
}

/**
 * `spec` as it must be written in a manifest at `out` to name what it named
 * from `root`; unchanged unless it is a relative path (`file:` or bare).
 *
 * @example
 * relocateSpec('file:../kiln', '/srv/shop', '/srv/shop/build') // 'file:../../kiln'
 */
export function relocateSpec(spec: string, root: string, out: string): string {
  const file = spec.startsWith('file:')
  const path = file ? spec.slice('file:'.length) : spec
  const relativePath = file ? !isAbsolute(path) && !path.startsWith('~') && !path.startsWith('//') : /^\.\.?(\/|\\|$)/.test(path)
  if (!relativePath) return spec
  let moved = relative(out, resolve(root, path)).split(sep).join('/')
  // npm reads a bare spec as a path only when it starts with ./ or ../ (or /).
  if (!moved.startsWith('../') && moved !== '..') moved = moved === '' ? '.' : `./${moved}`
  return file ? `file:${moved}` : moved
}

function relocateRecord(record: unknown, move: (spec: string) => string): void {
  if (!record || typeof record !== 'object') return
  const specs = record as Record<string, unknown>
  for (const [name, spec] of Object.entries(specs)) if (typeof spec === 'string') specs[name] = move(spec)
}

/**
 * A v2/v3 lock names linked folders by their path from the app (as keys of
 * `packages`, and in `resolved`): moved the same way, so `npm ci` in the build
 * installs what the app's lock pinned.
 */
function relocateLock(lock: Record<string, unknown>, root: string, out: string, move: (spec: string) => string): void {
  const packages = lock.packages
  if (packages && typeof packages === 'object') {
    const entries = Object.entries(packages as Record<string, Record<string, unknown>>).map(([key, entry]) => {
      if (key === '') for (const field of DEPENDENCY_FIELDS) relocateRecord(entry[field], move)
      if (typeof entry.resolved === 'string' && (entry.link === true || entry.resolved.startsWith('file:'))) {
        entry.resolved = entry.link === true ? relocateSpec(`./${entry.resolved}`, root, out).replace(/^\.\//, '') : move(entry.resolved)
      }
      const path = key === '' || key.startsWith('node_modules/') ? key : relocateSpec(`./${key}`, root, out).replace(/^\.\//, '')
      return [path, entry] as const
    })
    lock.packages = Object.fromEntries(entries)
  }
  // The v1 section (lockfileVersion 2): `version` holds the spec of a path dependency.
  relocateV1(lock.dependencies, move)
}

function relocateV1(dependencies: unknown, move: (spec: string) => string): void {
  if (!dependencies || typeof dependencies !== 'object') return
  for (const entry of Object.values(dependencies as Record<string, Record<string, unknown>>)) {
    if (typeof entry.version === 'string') entry.version = move(entry.version)
    relocateV1(entry.dependencies, move)
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}
