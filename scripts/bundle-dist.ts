/**
 * Bundles the compiled `dist/` so that a start loads a few files instead of
 * one per source module: each entry point of the package (every `exports`
 * target, and the CLI that `bin/kiln.js` imports) becomes one ES module at
 * its own path, and the code they share goes into `dist/chunks/`
 * (esbuild, `splitting`). Modules loaded on first use (`import()`) stay
 * apart as their own chunks, so what was lazy stays lazy. Dependencies stay
 * external: an app and Kiln share one copy of each (zod, h3...).
 *
 * Why: Node's ES module loader pays per module (resolving, a file read, a
 * compile, linking), and `import 'kiln-framework'` loaded about 170 of
 * Kiln's; see bench/NOTES.md, "Start time (P6)".
 *
 * Code that finds files beside itself (`new URL('./stubs/', import.meta.url)`,
 * `createRequire(import.meta.url)`) keeps finding them: each
 * `import.meta.url` becomes the URL of the module's compiled file where it
 * was before bundling, computed from the output file it lands in. The
 * bundled modules' own files are then removed, so no path can load a second
 * copy of a module (and of its classes and registries). Files nothing
 * imports (migrations, loaded by path; type-only modules) stay as they were.
 *
 * Source maps chain through the compiled files' maps to the TypeScript.
 *
 *   bundleDist(distFolder) // after tsc, from scripts/build-package.ts
 */
import { build, type Plugin } from 'esbuild'
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

// Stands in for a module's own compiled path until its output file (and so the relative path) is known.
const MARK = '@kiln-dist/'

/** The package's entry points under `dist/`: `exports` targets (a `*` expanded over its folder) and the CLI. */
export function entryPoints(root: string, dist: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
  const targets = Object.values(manifest.exports).flatMap((value) =>
    value && typeof value === 'object' ? Object.values(value as Record<string, string>).filter((target) => target.endsWith('.js')) : [],
  )
  const entries = ['./dist/core/cli/main.js']
  for (const target of targets) {
    if (!target.includes('*')) entries.push(target)
    else {
      const [before, after] = target.split('*') as [string, string]
      for (const name of readdirSync(join(root, before))) if (existsSync(join(root, before, name + after))) entries.push(before + name + after)
    }
  }
  return [...new Set(entries)].map((entry) => join(root, entry)).filter((entry) => entry.startsWith(dist + sep))
}

/** Replaces `import.meta.url` in each compiled module of `dist` by a marker naming that module's path. */
function ownUrl(dist: string): Plugin {
  return {
    name: 'kiln-own-url',
    setup(builder) {
      builder.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(dist + sep)) return undefined
        const text = readFileSync(args.path, 'utf8')
        if (!text.includes('import.meta.url')) return undefined
        const own = relative(dist, args.path).split(sep).join('/')
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(MARK + own)}, import.meta.url).href`), loader: 'js' }
      })
    },
  }
}

/**
 * Bundles `dist` in place (see the file's comment); returns how many
 * modules went into how many files.
 *
 * @example
 * ```ts
 * const { modules, files } = await bundleDist('/path/to/kiln', '/path/to/kiln/dist')
 * ```
 */
export async function bundleDist(root: string, dist: string): Promise<{ modules: number; files: number }> {
  const result = await build({
    entryPoints: entryPoints(root, dist),
    outdir: dist,
    outbase: dist,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: true,
    metafile: true,
    // The metafile names its inputs relative to the working directory: pinning it to the package root makes them
    // paths under the root wherever the build runs from (a clone deep under the temp folder, a fixture elsewhere).
    absWorkingDir: root,
    write: false,
    logLevel: 'warning',
    plugins: [ownUrl(dist)],
  })
  // Every module bundled goes: the entries are rewritten at their paths below, the rest lives in chunks.
  const bundled = Object.keys(result.metafile.inputs).map((input) => join(root, input))
  for (const file of bundled) {
    if (!file.startsWith(dist + sep) || !file.endsWith('.js')) continue
    rmSync(file)
    rmSync(`${file}.map`, { force: true })
  }
  for (const output of result.outputFiles) {
    const from = dirname(output.path)
    let text = output.text
    if (output.path.endsWith('.js'))
      text = text.replace(/"@kiln-dist\/([^"]+)"/g, (_, own: string) => {
        const path = relative(from, join(dist, own)).split(sep).join('/')
        return JSON.stringify(path.startsWith('.') ? path : `./${path}`)
      })
    mkdirSync(from, { recursive: true })
    writeFileSync(output.path, text)
  }
  return { modules: bundled.length, files: result.outputFiles.filter((output) => output.path.endsWith('.js')).length }
}
