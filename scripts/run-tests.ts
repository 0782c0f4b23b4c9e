// `npm test`: the whole suite in two groups (tests/test-groups.js). The quick group, which needs nothing but Node,
// runs first, so a newcomer sees it pass or fail within minutes; then, once PostgreSQL, Redis and Chromium answer,
// the rest. A missing service stops the run with one message naming it and how to point the tests elsewhere,
// rather than a hundred connection errors. Any failure exits non-zero, which is what CI reads.
import { spawnSync } from 'node:child_process'
import pc from 'picocolors'
import { missingServices } from './test-services.ts'

function ava(config: string): number {
  return spawnSync('npx', ['ava', '--config', config], { stdio: 'inherit' }).status ?? 1
}

console.log(pc.bold('\nnpm test, 1 of 2: the quick tests (Node only; `npm run test:quick` runs them alone)\n'))
const quick = ava('tests/quick.config.js')
if (quick !== 0) process.exit(quick)

const missing = await missingServices()
if (missing.length > 0) {
  console.error(pc.red(`\nThe quick tests passed. The rest need services that are not here:\n${missing.map((line) => `  - ${line}`).join('\n')}`))
  process.exit(1)
}
console.log(pc.bold('\nnpm test, 2 of 2: the rest (Chromium, PostgreSQL and Redis, npm installs, type checks; `npm run test:rest` alone)\n'))
process.exit(ava('tests/rest.config.js'))
