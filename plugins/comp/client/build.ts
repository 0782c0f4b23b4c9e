import { mkdirSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const ENTRY = fileURLToPath(new URL('./index.ts', import.meta.url))
const OUT = fileURLToPath(new URL('../dist/comp.js', import.meta.url))

/**
 * Bundles the component client (with @alpinejs/morph; Alpine itself is
 * loaded beside it) into one minified browser script: `plugins/comp/dist/comp.js`.
 * Written to a temporary file and renamed, so a parallel build or a
 * request never reads half a file.
 *
 * @example
 * ```ts
 * await buildClient()
 * ```
 */
export async function buildClient(): Promise<string> {
  const { build } = await import('esbuild')
  mkdirSync(dirname(OUT), { recursive: true })
  const temp = `${OUT}.${process.pid}.${Date.now()}.tmp`
  await build({
    entryPoints: [ENTRY],
    outfile: temp,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'silent',
  })
  renameSync(temp, OUT)
  return OUT
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = await buildClient()
  console.log(`Built ${file}`)
}
