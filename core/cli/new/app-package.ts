import { builtinModules } from 'node:module'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'

/**
 * The framework's own package name: a new app depends on it by a `file:` path (a clone, a tarball) or a version range.
 *
 * @example
 * ```ts
 * pkg.dependencies[FRAMEWORK_PACKAGE] // 'file:../kiln'
 * ```
 */
export const FRAMEWORK_PACKAGE = 'kiln-framework'

/** The export condition under which `kiln-framework` resolves to the TypeScript sources of a clone, not to its build. */
export const SOURCE_CONDITION = 'kiln-source'

/**
 * What every new app needs to run its tests and type-check, whatever its code imports, and what `kiln dev` loads
 * from the app: chokidar watches its files, pino-pretty formats its log lines. None of them is installed in
 * production (`npm ci --omit=dev`).
 */
const TOOLING = ['ava', 'tsx', 'typescript', '@types/node', 'chokidar', 'pino-pretty']

/** Packages a driver named in the app's config needs: optional peers of Kiln, so the app's own dependencies. */
const CONFIG_DRIVERS: { file: string; driver: RegExp; packages: string[] }[] = [
  { file: 'config/database.ts', driver: /\bdriver:\s*['"]sqlite['"]/, packages: ['better-sqlite3'] },
]

/**
 * The framework's package.json, as far as a new app's needs go.
 *
 * @example
 * ```ts
 * const framework = JSON.parse(readFileSync(join(KILN_ROOT, 'package.json'), 'utf8')) as FrameworkManifest
 * ```
 */
export interface FrameworkManifest {
  version?: string
  engines?: Record<string, string>
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  /** npm's list of packages whose install scripts may run. */
  allowScripts?: Record<string, boolean>
}

// Top-level static imports and re-exports (their clause cannot hold `(`, `=`, `;` or a quote, so a match never runs
// past its own statement), side-effect imports, and dynamic imports with a literal specifier.
const IMPORT_PATTERNS = [
  /^(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]+?\s+from\s+['"]([^'"\n]+)['"]/gm,
  /^import\s+['"]([^'"\n]+)['"]/gm,
  /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g,
]

/**
 * The npm packages a TypeScript source imports: bare specifiers reduced to
 * their package name (`kysely`, `@scope/pkg`), without Node's built-ins and
 * relative paths.
 *
 * @example
 * ```ts
 * importedPackages("import { z } from 'zod'\nimport { sql } from 'kysely/helpers'\nimport { join } from 'node:path'") // ['zod', 'kysely']
 * ```
 */
export function importedPackages(source: string): string[] {
  const found = new Set<string>()
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      const name = packageName(match[1]!)
      if (name) found.add(name)
    }
  }
  return [...found]
}

function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#') || isAbsolute(specifier)) return undefined
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/**
 * The packages an app's code imports, scanning its `.ts` files: those of
 * `tests/` alone are development dependencies.
 *
 * @example
 * ```ts
 * scanAppImports('/srv/my-app') // { runtime: ['kiln-framework', 'zod', 'kysely'], dev: ['ava'] }
 * ```
 */
export function scanAppImports(root: string): { runtime: string[]; dev: string[] } {
  const runtime = new Set<string>()
  const dev = new Set<string>()
  for (const file of sourceFiles(root)) {
    const inTests = relative(root, file).split(sep)[0] === 'tests'
    for (const name of importedPackages(readFileSync(file, 'utf8'))) (inTests ? dev : runtime).add(name)
  }
  // The embedded SQLite default (better-sqlite3, an optional peer of Kiln): needed by the app's config, not imported.
  for (const { file, driver, packages } of CONFIG_DRIVERS) {
    const path = join(root, file)
    if (existsSync(path) && driver.test(readFileSync(path, 'utf8'))) for (const name of packages) runtime.add(name)
  }
  return { runtime: [...runtime].sort(), dev: [...dev].filter((name) => !runtime.has(name)).sort() }
}

function sourceFiles(dir: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'storage' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...sourceFiles(path))
    else if (/\.(?:ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path)
  }
  return files
}

/**
 * The `package.json` of a new app: the framework as `frameworkSpec` says,
 * every other package its code imports at the framework's own version range
 * (so the app and the framework agree on zod, kysely...), ava, tsx and
 * TypeScript for `npm test` and `npm run typecheck`, and the scripts
 * `dev`, `start`, `migrate`, `seed`, `test` and `typecheck`.
 *
 * @example
 * ```ts
 * appPackageJson({ name: 'my-app', frameworkSpec: 'file:../kiln', imports: scanAppImports(dir), framework: manifest })
 * ```
 */
export function appPackageJson(options: {
  name: string
  /** How the app's package.json names Kiln: `file:../kiln`, `file:../kiln-framework-0.1.0.tgz`, `^0.1.0` (`new/framework-spec.ts`). */
  frameworkSpec: string
  imports: { runtime: string[]; dev: string[] }
  framework: FrameworkManifest
  /**
   * `true`: Kiln is a clone running from its TypeScript sources, and the app's tests resolve `kiln-framework` to them
   * (the `kiln-source` condition). `false`: a built package (a version, a tarball), used through its compiled code.
   */
  linkedToSources?: boolean
  /**
   * The version of a package installed beside the linked clone, if any. The app then asks for exactly that version:
   * TypeScript treats two copies of a package as one only when their versions match, and a newer patch release in
   * the app would make kysely's or zod's classes two different types (`#private` refers to a different member).
   */
  installedVersion?: (name: string) => string | undefined
}): Record<string, unknown> {
  const { framework, imports } = options
  const declared = (name: string) => framework.dependencies?.[name] ?? framework.devDependencies?.[name] ?? framework.peerDependencies?.[name]
  const range = (name: string) => (declared(name) && options.installedVersion?.(name)) || declared(name) || 'latest'
  const dependencies: Record<string, string> = { [FRAMEWORK_PACKAGE]: options.frameworkSpec }
  for (const name of imports.runtime) if (name !== FRAMEWORK_PACKAGE) dependencies[name] = range(name)
  const devDependencies: Record<string, string> = {}
  for (const name of [...imports.dev, ...TOOLING].sort()) if (!(name in dependencies) && name !== FRAMEWORK_PACKAGE) devDependencies[name] = range(name)
  return {
    name: options.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    ...(framework.engines?.node ? { engines: { node: framework.engines.node } } : {}),
    scripts: {
      dev: 'kiln dev',
      start: 'kiln serve',
      migrate: 'kiln migrate',
      seed: 'kiln db:seed',
      test: 'ava',
      typecheck: 'tsc --noEmit',
    },
    dependencies: sortKeys(dependencies),
    devDependencies,
    // The same install scripts the framework allows (esbuild's, under tsx), so npm installs without a warning.
    ...(framework.allowScripts ? { allowScripts: framework.allowScripts } : {}),
    ava: {
      files: ['tests/**/*.test.ts'],
      extensions: { ts: 'module' },
      nodeArguments: [...(options.linkedToSources ? [`--conditions=${SOURCE_CONDITION}`] : []), '--import=tsx'],
      // Node 20 cannot load tsx into ava's worker threads: each test file runs in its own process instead.
      workerThreads: false,
    },
  }
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}
