import test from 'ava'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { missingServices } from '../../scripts/test-services.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }
const readme = readFileSync(`${root}README.md`, 'utf8')

type Config = { default: { files: string[]; nodeArguments: string[] } }
const load = async (name: string) => ((await import(new URL(`../${name}`, import.meta.url).href)) as Config).default

test('npm test runs the quick group first and then the rest; together they are every test file, each once', async (t) => {
  t.is(pkg.scripts.test, 'node --import=tsx scripts/run-tests.ts')
  t.is(pkg.scripts['test:quick'], 'ava --config tests/quick.config.js')
  t.is(pkg.scripts['test:rest'], 'ava --config tests/rest.config.js')
  const runner = readFileSync(`${root}scripts/run-tests.ts`, 'utf8')
  t.true(runner.indexOf("ava('tests/quick.config.js')") < runner.indexOf("ava('tests/rest.config.js')"), 'the quick group runs first')

  const { allTests } = (await import(new URL('../test-groups.js', import.meta.url).href)) as { allTests: string[] }
  const quick = await load('quick.config.js')
  const rest = await load('rest.config.js')
  t.deepEqual([...quick.files, ...rest.files].sort(), allTests, 'no file in neither group, none in both')
  t.true(allTests.includes('tests/docs/quick-tests.test.ts') && allTests.includes('plugins/comp/features/lazy/lazy.test.ts'), 'both of ava’s globs are read')
  // PostgreSQL, Redis and Chromium tests are found by what they connect to or their suffix, not listed by hand.
  for (const file of [
    'tests/core/database/model-pgsql.test.ts',
    'tests/core/session/session-redis.test.ts',
    'tests/drivers/broadcast/kv/kv.test.ts',
    'plugins/comp/features/lazy/lazy.browser.test.ts',
  ])
    t.true(rest.files.includes(file), `${file} waits for the second group`)
  for (const file of ['tests/core/http/error-page.test.ts', 'tests/core/database/model-sqlite.test.ts', 'tests/plugins/comp/update.test.ts'])
    t.true(quick.files.includes(file), `${file} runs in the quick group`)
  t.deepEqual(quick.nodeArguments, ['--conditions=kiln-source', '--import=tsx'], 'the rest of ava’s settings are package.json’s')
  t.deepEqual(rest.nodeArguments, quick.nodeArguments)
})

test('the README’s quick start runs npm test, and says the quick tests come first', (t) => {
  t.regex(readme, /^npm install && npm start {3}# /m)
  t.regex(readme, /^npm install && npm test {4}# .*quick tests first/m)
  t.regex(readme, /npm run test:quick/)
  t.regex(readme, /about \d+ minutes/, 'the full suite’s duration')
})

test('a missing PostgreSQL, Redis or Chromium is named, with the variable that points the tests elsewhere', async (t) => {
  const saved = { ...process.env }
  try {
    // Port 9 (discard) is closed on this machine kind; nothing listens there.
    process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:9/test'
    process.env.REDIS_URL = 'redis://127.0.0.1:9'
    process.env.CHROMIUM_PATH = '/nonexistent/chromium'
    t.deepEqual(await missingServices(), [
      'PostgreSQL does not answer at 127.0.0.1:9 (start it, or set DATABASE_URL)',
      'Redis does not answer at 127.0.0.1:9 (start it, or set REDIS_URL)',
      'Chromium is not at /nonexistent/chromium (install it, or set CHROMIUM_PATH)',
    ])
  } finally {
    process.env = saved
  }
  // Where the tests look by default, on this machine all three answer.
  t.deepEqual(await missingServices(), [])
})
