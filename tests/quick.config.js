// `npm run test:quick`: the test suite without what needs more than Node: no Chromium (tests/browser, and every
// `*.browser.test.ts` wherever a feature keeps it), no PostgreSQL or Redis, no npm install (tests/cli-new,
// tests/package); and without its slowest kinds: the TypeScript compilations (`npm run typecheck` and
// `npm run docs:check` do the same), the fuzz tests, and `kiln dev`'s watcher (tests/core/dev). The rest of ava's
// settings are package.json's.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const { ava } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** Folders whose every test needs a browser or an npm install, and the Chromium tests kept beside their code. */
const SKIPPED = ['tests/browser/**', 'tests/cli-new/**', 'tests/package/**', 'tests/core/dev/**', '**/*.browser.test.ts']

/** The slow kinds, by name: whole-program type checks and fuzzing. */
const SLOW = /typecheck|fuzz/

/**
 * What a test needs PostgreSQL or Redis for, as its own text says it: their addresses and clients, the fixtures that
 * start them (pgSchema, redisServer, redisLink, rtCluster), or the `'pgsql'` dialect of the fixtures that take one.
 * Read from the files, so a new test that connects to either is left out without being listed here.
 */
const SERVICE = /pgSchema|DATABASE_URL|postgres:\/\/|:5432\b|:6379\b|redis:\/\/|ioredis|bullmq|REDIS_URL|redisServer|redisLink|rtCluster|'pgsql'|'redis'/

/** A Chromium test that lacks the `.browser.test.ts` suffix is still left out: it launches or drives a browser. */
const BROWSER = /launchChromium|playwright-core|browserApp\(/

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : testFiles(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

const candidates = [...testFiles(join(root, 'tests')), ...testFiles(join(root, 'plugins'))]
  .map((file) => relative(root, file).split('\\').join('/'))
  .filter((file) => !/^tests\/(browser|cli-new|package|core\/dev)\//.test(file) && !file.endsWith('.browser.test.ts'))
const leftOut = candidates.filter((file) => {
  if (SLOW.test(file)) return true
  const text = readFileSync(join(root, file), 'utf8')
  return SERVICE.test(text) || BROWSER.test(text)
})

export default {
  ...ava,
  files: [...ava.files, ...SKIPPED.map((glob) => `!${glob}`), ...leftOut.map((file) => `!${file}`)],
}
