import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { parseEnv } from 'node:util'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type * as TypeScript from 'typescript'
import { CommandError, defineCommand } from '../define-command.ts'
import { refuseFailedChecks } from './build-checks.ts'
import { writeBuildManifest } from './build-manifest.ts'
import { keptInBuild, previousBuild, removeStale, writeBuildList } from './build-output.ts'

// Never part of a build: dependencies (installed again in the build), local state, secrets, tests and builds.
const SKIP = [/^build$/, /^node_modules$/, /^\.env$/, /^\.git$/, /^tests$/, /^storage$/, /^database\/.*\.sqlite.*$/, /^tsconfig(\..+)?\.json$/]

/**
 * `kiln build`: compiles the app's TypeScript (`config/`, `routes/`, `app/`,
 * `database/`) to JavaScript in `build/` and copies everything else it needs
 * (views, `public/`, `package.json`, `.env.example`), so production runs it on
 * plain node: `cd build && npm ci --omit=dev && npx kiln serve`. First, the
 * checks of `kiln check` must pass: an app with a mistake is not built. Each file is
 * compiled on its own with the app's `tsconfig.json` (no type check: run
 * `npm run typecheck` for that), and imports of `./x.ts` become `./x.js`.
 *
 * A build over a build replaces only what builds write (listed in
 * `build/.kiln-build.json`): the operator's `.env`, `node_modules/`,
 * `storage/` and SQLite files stay, and a file of the previous build whose
 * source is gone (a deleted route file) is removed.
 */
export const buildCommand = defineCommand({
  name: 'build',
  description: 'Compile the application to JavaScript in build/ for production',
  needsApp: false,
  flags: {
    out: { type: 'string', description: 'Output folder, relative to the app (default: build)' },
  },
  examples: ['kiln build', 'kiln build --out=dist'],
  async run(ctx) {
    const { root, flags, info } = ctx
    if (!existsSync(join(root, 'config'))) throw new CommandError(`No application in ${root} (no config/ folder): run kiln build in the app's folder.`)
    const out = resolve(root, String(flags.out ?? 'build'))
    const rel = relative(root, out)
    if (rel === '' || rel.startsWith('..') || rel.split(sep).length > 1) throw new CommandError(`--out must name a folder directly inside the app, not ${out}.`)
    // An app whose checks fail (a template reading a name its component lacks) is not built.
    await refuseFailedChecks(ctx)
    const ts = loadTypeScript(root)
    const options = compilerOptions(ts, root)
    const sources = appFiles(root, root, rel).filter((file) => file !== 'package.json' && file !== 'package-lock.json')
    const manifests = ['package.json', 'package-lock.json'].filter((file) => existsSync(join(root, file)))
    const written = new Set([...sources.map(outputName), ...manifests])
    // Before writing: a stale file may stand where the new build needs a folder.
    const before = dependencies(out)
    const removed = removeStale(out, previousBuild(out), written)
    let compiled = 0
    let copied = 0
    for (const file of sources) {
      const target = join(out, outputName(file))
      mkdirSync(dirname(target), { recursive: true })
      if (compiles(file)) {
        const source = readFileSync(join(root, file), 'utf8')
        writeFileSync(target, ts.transpileModule(source, { compilerOptions: options, fileName: file }).outputText)
        compiled++
      } else {
        copyFileSync(join(root, file), target)
        copied++
      }
    }
    mkdirSync(out, { recursive: true })
    // Written with relative path specs moved for the build's folder.
    const moved = writeBuildManifest(root, out)
    copied += manifests.length
    // Runtime state lives here (uploads, logs, the fs stores): the operator's, kept from one build to the next.
    mkdirSync(join(out, 'storage'), { recursive: true })
    writeBuildList(out, written)
    info(`Built ${compiled} TypeScript files and copied ${copied} others into ${rel}/.`)
    if (moved > 0) info(`Rewrote ${moved} relative path dependencies (file:) for ${rel}/, one folder deeper.`)
    const kept = keptInBuild(out)
    if (kept.length > 0) info(`Kept what was already in ${rel}/: ${kept.join(', ')}.`)
    if (removed > 0) info(`Removed ${removed} ${removed === 1 ? 'file' : 'files'} of the previous build whose source is gone.`)
    info(nextSteps(rel, out, before !== dependencies(out)))
    return 0
  },
})

/** Compiled to JavaScript, rather than copied. */
function compiles(file: string): boolean {
  return /\.(m?ts)$/.test(file) && !file.endsWith('.d.ts')
}

/** The name a source file has in the build. */
function outputName(file: string): string {
  return compiles(file) ? file.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs') : file
}

/** The build's package.json and lock as they are, to tell whether this build changed its dependencies. */
function dependencies(out: string): string {
  return ['package.json', 'package-lock.json'].map((file) => (existsSync(join(out, file)) ? readFileSync(join(out, file), 'utf8') : '')).join('\0')
}

/**
 * The commands that start the build in production, as they must be typed
 * there: `npm ci` only when the dependencies changed or were never
 * installed, the settings when the build has no `.env` yet, and
 * `migrate --force` (production refuses `migrate` without it).
 */
function nextSteps(rel: string, out: string, dependenciesChanged: boolean): string {
  const envFile = join(out, '.env')
  const settings = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {}
  const lines = ['Run it in production:', `  cd ${rel}`]
  if (dependenciesChanged || !existsSync(join(out, 'node_modules'))) lines.push('  npm ci --omit=dev')
  const missing = ['APP_ENV', 'APP_KEY', 'APP_URL'].filter((name) => !settings[name])
  if (missing.length > 0)
    lines.push(
      `  # set ${missing.join(', ')} in ${rel}/.env or the environment: APP_ENV=production, APP_KEY from \`npx kiln key:generate --show\`, APP_URL the address people reach the app at (and the database: docs/deployment.md)`,
    )
  const env = settings.APP_ENV ? '' : 'APP_ENV=production '
  lines.push(`  ${env}npx kiln migrate --force`, `  ${env}npx kiln serve`)
  return lines.join('\n')
}

/** The app's TypeScript compiler (a development dependency of every new app), else the one beside Kiln. */
function loadTypeScript(root: string): typeof TypeScript {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)('typescript') as typeof TypeScript
    } catch {
      // Not installed beside this root: try the next one.
    }
  }
  throw new CommandError('kiln build compiles with TypeScript, which is not installed: run npm install --save-dev typescript.')
}

/** The app's tsconfig options, set to emit ES modules with `.js` import paths. */
function compilerOptions(ts: typeof TypeScript, root: string): TypeScript.CompilerOptions {
  const file = join(root, 'tsconfig.json')
  const { config } = existsSync(file) ? ts.readConfigFile(file, ts.sys.readFile) : { config: {} }
  const { options } = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, root)
  return {
    ...options,
    noEmit: false,
    declaration: false,
    sourceMap: false,
    allowImportingTsExtensions: false,
    rewriteRelativeImportExtensions: true,
    // Each file on its own, as ES modules: transpileModule cannot read package.json to tell NodeNext the format.
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  }
}

/** Every file of the app to build, relative to `root`, with `/` separators. */
function appFiles(root: string, dir: string, outFolder: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = relative(root, join(dir, entry.name)).split(sep).join('/')
    if (rel === outFolder || SKIP.some((re) => re.test(rel))) return []
    if (entry.name.startsWith('.') && entry.name !== '.env.example') return []
    if (entry.isDirectory()) return appFiles(root, join(dir, entry.name), outFolder)
    return entry.isFile() ? [rel] : []
  })
}
