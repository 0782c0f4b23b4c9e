import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type * as TypeScript from 'typescript'
import { CommandError, defineCommand } from '../define-command.ts'
import { writeBuildManifest } from './build-manifest.ts'

// Never part of a build: dependencies (installed again in the build), local state, secrets, tests and builds.
const SKIP = [/^build$/, /^node_modules$/, /^\.env$/, /^\.git$/, /^tests$/, /^storage$/, /^database\/.*\.sqlite.*$/, /^tsconfig(\..+)?\.json$/]

/**
 * `kiln build`: compiles the app's TypeScript (`config/`, `routes/`, `app/`,
 * `database/`) to JavaScript in `build/` and copies everything else it needs
 * (views, `public/`, `package.json`, `.env.example`), so production runs it on
 * plain node: `cd build && npm ci --omit=dev && npx kiln serve`. Each file is
 * compiled on its own with the app's `tsconfig.json` (no type check: run
 * `npm run typecheck` for that), and imports of `./x.ts` become `./x.js`.
 */
export const buildCommand = defineCommand({
  name: 'build',
  description: 'Compile the application to JavaScript in build/ for production',
  needsApp: false,
  flags: {
    out: { type: 'string', description: 'Output folder, relative to the app (default: build)' },
  },
  examples: ['kiln build', 'kiln build --out=dist'],
  run({ root, flags, info }) {
    if (!existsSync(join(root, 'config'))) throw new CommandError(`No application in ${root} (no config/ folder): run kiln build in the app's folder.`)
    const out = resolve(root, String(flags.out ?? 'build'))
    const rel = relative(root, out)
    if (rel === '' || rel.startsWith('..') || rel.split(sep).length > 1) throw new CommandError(`--out must name a folder directly inside the app, not ${out}.`)
    const ts = loadTypeScript(root)
    const options = compilerOptions(ts, root)
    rmSync(out, { recursive: true, force: true })
    let compiled = 0
    let copied = 0
    for (const file of appFiles(root, root, rel)) {
      // Written below, with relative path specs moved for the build's folder.
      if (file === 'package.json' || file === 'package-lock.json') continue
      const target = join(out, file)
      mkdirSync(dirname(target), { recursive: true })
      if (/\.(m?ts)$/.test(file) && !file.endsWith('.d.ts')) {
        const source = readFileSync(join(root, file), 'utf8')
        const { outputText } = ts.transpileModule(source, { compilerOptions: options, fileName: file })
        writeFileSync(target.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs'), outputText)
        compiled++
      } else {
        copyFileSync(join(root, file), target)
        copied++
      }
    }
    mkdirSync(out, { recursive: true })
    const moved = writeBuildManifest(root, out)
    copied += ['package.json', 'package-lock.json'].filter((file) => existsSync(join(root, file))).length
    // Runtime state lives here (uploads, logs, the fs stores): an empty folder, as in a fresh clone of the app.
    mkdirSync(join(out, 'storage'), { recursive: true })
    info(`Built ${compiled} TypeScript files and copied ${copied} others into ${rel}/.`)
    if (moved > 0) info(`Rewrote ${moved} relative path dependencies (file:) for ${rel}/, one folder deeper.`)
    info(`Run it: cd ${rel} && npm ci --omit=dev && npx kiln migrate && npx kiln serve`)
    return 0
  },
})

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
