import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { typecheckVirtual } from '../../fixtures/virtual-typecheck.ts'

// Issue 27 item 2: each feature's define…Config makes tsc reject a key the feature does not have,
// in a value and in a factory's returned object, at any depth.

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')
const fixture = join(root, 'tests/core/config/typecheck/config-typos.ts')

test('tsc rejects misspelled and mistyped keys in config files written with define…Config, and accepts correct ones', (t) => {
  t.timeout(180_000)
  const text = readFileSync(`${fixture}.txt`, 'utf8')
  const failing = [...new Set(typecheckVirtual(fixture, text).map((diagnostic) => diagnostic.line))].sort((x, y) => x - y)
  const marked = text.split('\n').flatMap((line, index) => (line.endsWith('// error') ? [index + 1] : []))
  t.is(marked.length, 8)
  t.deepEqual(failing, marked)
})
