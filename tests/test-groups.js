// The two groups `npm test` runs, in this order (scripts/run-tests.ts), and that `npm run test:quick` and
// `npm run test:rest` run alone:
// - quick: what needs nothing but Node, the tests a newcomer runs first. Left out: Chromium (tests/browser, and every
//   `*.browser.test.ts` wherever a feature keeps it), PostgreSQL and Redis, npm install (tests/cli-new, tests/package),
//   and the slowest kinds: the TypeScript compilations, the fuzz tests, and `kiln dev`'s watcher (tests/core/dev).
// - rest: everything else. Together they are every file ava's own glob finds, each once.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))

/** Folders whose every test needs a browser, an npm install or a file watcher, and the Chromium tests kept beside their code. */
const NOT_QUICK_PATH = /^tests\/(browser|cli-new|package|core\/dev)\/|\.browser\.test\.ts$/

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

/** Every test file under ava's globs (`tests/**` and `plugins/**`), relative to the repository, sorted. */
export const allTests = [...testFiles(join(root, 'tests')), ...testFiles(join(root, 'plugins'))]
  .map((file) => relative(root, file).split('\\').join('/'))
  .sort()

function isQuick(file) {
  if (NOT_QUICK_PATH.test(file) || SLOW.test(file)) return false
  const text = readFileSync(join(root, file), 'utf8')
  return !SERVICE.test(text) && !BROWSER.test(text)
}

/** The quick group's files. */
export const quickTests = allTests.filter(isQuick)

/** The rest: browsers, services, installs and the slow kinds. */
export const restTests = allTests.filter((file) => !quickTests.includes(file))
