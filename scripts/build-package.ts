/**
 * Builds what the npm package ships: the compiled JavaScript and declaration
 * files of `core/`, `plugins/` and `drivers/` in `dist/`, beside the files
 * that code reads by relative path (the component client bundle, the
 * realtime browser bundle, plugin views, stubs and migrations).
 *
 * The JavaScript is then bundled (scripts/bundle-dist.ts): one file per
 * entry point and shared chunks, so a start loads a few files.
 *
 * Source maps ship with them: `.js.map` and `.d.ts.map`, each with the
 * TypeScript it came from inside (`sourcesContent`), as the sources are not
 * in the package.
 *
 * Run it with `npm run build`; `npm pack` and `npm publish` run it first.
 * The clone itself never needs it: it runs from the TypeScript sources.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { buildClient } from '../plugins/comp/client/build.ts'
import { bundleDist } from './bundle-dist.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const DIST = join(ROOT, 'dist')

rmSync(DIST, { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' })

// The component client ships built: a package has no client sources to build it from on first boot.
copy(await buildClient(), join(DIST, 'plugins/comp/dist/comp.js'))
rmSync(join(DIST, 'plugins/comp/client'), { recursive: true, force: true })
for (const file of ['rt.js', 'rt-sealed.js']) copy(join(ROOT, 'packages/rt/dist', file), join(DIST, 'packages/rt/dist', file))
// Plugin files read by path, not imported: views (a feature keeps its own, beside its code) and stubs (a stub such
// as tok's config stays TypeScript, for the app).
for (const plugin of readdirSync(join(ROOT, 'plugins'))) {
  for (const folder of ['views', 'stubs']) {
    const from = join(ROOT, 'plugins', plugin, folder)
    if (existsSync(from)) copy(from, join(DIST, 'plugins', plugin, folder))
  }
  for (const file of readdirSync(join(ROOT, 'plugins', plugin), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.hbs') && !file.startsWith('views/') && !file.startsWith('stubs/'))
      copy(join(ROOT, 'plugins', plugin, file), join(DIST, 'plugins', plugin, file))
  }
}
// One file per entry point and shared chunks instead of one per module: Node's loader pays per module at start.
const { modules, files } = await bundleDist(ROOT, DIST)
embedDeclarationSources(DIST)
console.log(`Built ${DIST}: ${modules} modules bundled into ${files} files`)

function copy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true })
  cpSync(from, to, { recursive: true })
}

/**
 * Declaration maps (go to definition lands in the TypeScript source) name
 * sources the tarball does not ship (`core/`, `plugins/`, `drivers/`): their
 * text goes inside each map as `sourcesContent`, as the JavaScript maps'
 * does (`inlineSources`).
 */
function embedDeclarationSources(dir: string): void {
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.d.ts.map')) continue
    const path = join(dir, file)
    const map = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] }
    map.sourcesContent = map.sources.map((source) => {
      const from = resolve(dirname(path), map.sourceRoot ?? '', source)
      return existsSync(from) ? readFileSync(from, 'utf8') : null
    })
    writeFileSync(path, JSON.stringify(map))
  }
}
