import test from 'ava'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }
const readme = readFileSync(`${root}README.md`, 'utf8')

test('npm run test:quick runs ava without browsers, services and installs; the README documents it and the full run’s duration', async (t) => {
  t.is(pkg.scripts['test:quick'], 'ava --config tests/quick.config.js')
  const { default: config } = (await import(new URL('../quick.config.js', import.meta.url).href)) as { default: { files: string[]; nodeArguments: string[] } }
  const left = config.files.filter((glob) => glob.startsWith('!'))
  for (const glob of ['!tests/browser/**', '!tests/cli-new/**', '!tests/package/**']) t.true(left.includes(glob), glob)
  // PostgreSQL and Redis tests are found by what they connect to, not listed by hand.
  for (const file of ['tests/core/database/model-pgsql.test.ts', 'tests/core/session/session-redis.test.ts', 'tests/drivers/broadcast/kv/kv.test.ts'])
    t.true(left.includes(`!${file}`), file)
  for (const file of ['tests/core/http/error-page.test.ts', 'tests/core/database/model-sqlite.test.ts', 'tests/plugins/comp/update.test.ts'])
    t.false(left.includes(`!${file}`), `${file} runs in the quick subset`)
  t.deepEqual(config.nodeArguments, ['--conditions=kiln-source', '--import=tsx'], 'the rest of ava’s settings are package.json’s')

  t.regex(readme, /npm run test:quick/)
  t.regex(readme, /about \d+ minutes/, 'the full suite’s duration')
  // The first section's two commands stay as they are.
  t.regex(readme, /^npm install && npm start {3}# /m)
  t.regex(readme, /^npm install && npm test {4}# /m)
})
