// `npm run test:quick`: the tests that need nothing but Node (tests/test-groups.js says which); `npm test` runs
// them first. The rest of ava's settings are package.json's.
import { readFileSync } from 'node:fs'
import { quickTests } from './test-groups.js'

const { ava } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

export default { ...ava, files: quickTests }
