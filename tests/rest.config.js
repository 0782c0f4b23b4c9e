// `npm run test:rest`: the tests `test:quick` leaves out (Chromium, PostgreSQL and Redis, npm installs, the slow
// kinds; tests/test-groups.js says which); `npm test` runs them second. The rest of ava's settings are package.json's.
import { readFileSync } from 'node:fs'
import { restTests } from './test-groups.js'

const { ava } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

export default { ...ava, files: restTests }
