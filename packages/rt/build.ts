/**
 * Builds the browser bundle `dist/rt.js` (ESM, minified, no dependencies):
 * `node --import=tsx packages/rt/build.ts`. The bundle is committed, so an
 * app serves it without a build step; a test checks it matches the source.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** The bundle's text. @example `const js = await buildRtBundle()` */
export async function buildRtBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./src/browser.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    write: false,
    legalComments: 'none',
  })
  return result.outputFiles[0].text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(new URL('./dist/', import.meta.url), { recursive: true })
  writeFileSync(new URL('./dist/rt.js', import.meta.url), await buildRtBundle())
}
