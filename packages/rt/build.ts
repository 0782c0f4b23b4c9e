/**
 * Builds the browser bundle `dist/rt.js` (ESM, minified, no dependencies)
 * and `dist/rt-sealed.js`, the decryption of encrypted channels (NaCl, most
 * of the size), which `rt.js` imports only when a page subscribes to one:
 * `node --import=tsx packages/rt/build.ts`. The bundle is committed, so an
 * app serves it without a build step; a test checks it matches the source.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

/** The bundle's files by name (`rt.js`, `rt-sealed.js`). @example `const { 'rt.js': js } = await buildRtBundle()` */
export async function buildRtBundle(): Promise<Record<string, string>> {
  const bundle = async (entry: string, plugins: Plugin[] = []) => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
      bundle: true,
      format: 'esm',
      target: 'es2020',
      minify: true,
      write: false,
      legalComments: 'none',
      plugins,
    })
    return result.outputFiles[0]!.text
  }
  // rt.js loads the decryption from beside itself, and only when a page subscribes to an encrypted channel.
  const sealedBeside: Plugin = {
    name: 'sealed-beside',
    setup: (b) => b.onResolve({ filter: /\/sealed\.ts$/ }, () => ({ path: './rt-sealed.js', external: true })),
  }
  return { 'rt.js': await bundle('./src/browser.ts', [sealedBeside]), 'rt-sealed.js': await bundle('./src/sealed.ts') }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(new URL('./dist/', import.meta.url), { recursive: true })
  for (const [name, text] of Object.entries(await buildRtBundle())) writeFileSync(new URL(`./dist/${name}`, import.meta.url), text)
}
