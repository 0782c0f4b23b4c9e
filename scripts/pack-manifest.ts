/**
 * The package.json that `npm pack` and `npm publish` ship, without the
 * `kiln-source` export condition: its targets (`./core/index.ts`...) are the
 * clone's TypeScript sources, which the tarball does not carry, so a
 * consumer whose tooling set that condition would resolve to nothing.
 *
 * `strip` (prepack) keeps the clone's manifest aside and writes the
 * published one; `restore` (postpack, and the first thing `strip` does after
 * a pack that failed half-way) puts the clone's back: the clone's own tests
 * and `npm start` rely on the condition (docs/architecture.md).
 *
 *   node --import=tsx scripts/pack-manifest.ts strip|restore
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url))
const KEPT = fileURLToPath(new URL('../.package.json.clone', import.meta.url))
const CONDITION = 'kiln-source'

/**
 * `exports` without one condition, at any depth (a conditions object that
 * only had that one is left out with it).
 *
 * @example
 * withoutCondition({ '.': { 'kiln-source': './core/index.ts', default: './dist/core/index.js' } }, 'kiln-source')
 * // { '.': { default: './dist/core/index.js' } }
 */
export function withoutCondition(exports: unknown, condition: string): unknown {
  if (!exports || typeof exports !== 'object' || Array.isArray(exports)) return exports
  const kept = Object.entries(exports as Record<string, unknown>)
    .filter(([key]) => key !== condition)
    .map(([key, value]) => [key, withoutCondition(value, condition)] as const)
    .filter(([, value]) => !(value && typeof value === 'object' && Object.keys(value).length === 0))
  return Object.fromEntries(kept)
}

function restore(): void {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST)
}

function strip(): void {
  restore()
  const text = readFileSync(MANIFEST, 'utf8')
  const manifest = JSON.parse(text) as Record<string, unknown>
  writeFileSync(KEPT, text)
  manifest.exports = withoutCondition(manifest.exports, CONDITION)
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2]
  if (mode === 'strip') strip()
  else if (mode === 'restore') restore()
  else {
    console.error('usage: pack-manifest.ts strip|restore')
    process.exit(1)
  }
}
