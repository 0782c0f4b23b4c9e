import test from 'ava'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { clientBundle } from '../../../plugins/comp/assets/client-bundle.ts'

// The component client's budget: 20 KB gzipped, Alpine excluded. A size, not a timing: it does not vary with the machine.
const BUDGET = 20 * 1024

test('comp.js, built from its sources, stays within 20 KB gzipped', async (t) => {
  const file = await clientBundle()
  const gzipped = gzipSync(readFileSync(file), { level: 9 }).length
  t.log(`comp.js: ${(gzipped / 1024).toFixed(1)} KB gzipped`)
  t.true(gzipped <= BUDGET, `comp.js is ${gzipped} bytes gzipped, over the ${BUDGET}-byte budget`)
})
