import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { ANSI, bin, cli } from './cli-harness.ts'

const showEnv = `import { defineCommand } from 'kiln-framework'
export const showEnvCommand = defineCommand({
  name: 'env:show',
  description: 'Print the environment',
  run({ app, info, warn }) {
    info(\`env=\${app.environment} greeting=\${app.env.get('GREETING', 'none')} only=\${app.env.get('ONLY_BASE', 'none')}\`)
    warn('a warning')
  },
})
`

function app() {
  return tempApp({
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'app/commands/show-env.ts': showEnv,
    '.env': `APP_KEY=${generateAppKey()}\nGREETING=base\nONLY_BASE=yes\n`,
  })
}

test('kiln list prints the grouped list that kiln alone prints, and kiln list <namespace> only that namespace', async (t) => {
  const root = app()
  const [alone, list] = await Promise.all([bin([], root), bin(['list'], root)])
  t.is(list.code, 0, list.stderr)
  t.is(list.stdout, alone.stdout)
  t.regex(list.stdout, /^ {2}list +List the commands/m)
  t.regex(list.stdout, /^ make\n {2}make:\w+ /m)
  const make = await bin(['list', 'make'], root)
  t.is(make.code, 0, make.stderr)
  t.regex(make.stdout, /make:seeder|make:model/)
  t.notRegex(make.stdout, /migrate:fresh|route:list|^ {2}help /m)
  const unknown = await bin(['list', 'mak'], root)
  t.is(unknown.code, 1)
  t.regex(unknown.stderr, /^There are no commands in the "mak" namespace\. Did you mean "make"\?/)
})

test('-q and --quiet print nothing but errors', async (t) => {
  const root = app()
  const loud = await bin(['env:show'], root)
  t.regex(loud.stdout, /env=test/)
  t.regex(loud.stderr, /a warning/)
  for (const flag of ['-q', '--quiet']) {
    const quiet = await bin(['env:show', flag], root)
    t.is(quiet.code, 0, quiet.stderr)
    t.is(quiet.stdout, '')
    t.is(quiet.stderr, '')
    t.is((await bin([flag, 'list'], root)).stdout, '')
  }
  const failed = await bin(['migrat', '-q'], root)
  t.is(failed.code, 1)
  t.regex(failed.stderr, /Unknown command "migrat"/)
})

test('--no-ansi turns colour off even at a terminal or with FORCE_COLOR; --ansi turns it on in a pipe', async (t) => {
  const root = app()
  t.regex((await cli(['--help'], root, { APP_ENV: 'test' }, { tty: true })).stdout, ANSI)
  t.notRegex((await cli(['--help', '--no-ansi'], root, { APP_ENV: 'test' }, { tty: true })).stdout, ANSI)
  t.notRegex((await bin(['--help', '--no-ansi'], root, { FORCE_COLOR: '1' })).stdout, ANSI)
  t.notRegex((await bin(['--help'], root)).stdout, ANSI)
  t.regex((await bin(['--help', '--ansi'], root)).stdout, ANSI)
  t.regex((await bin(['migrat', '--ansi'], root, { NO_COLOR: '1' })).stderr, ANSI)
})

test('--env=<name> reads .env.<name> over .env and sets APP_ENV, as artisan does', async (t) => {
  const root = app()
  writeFileSync(join(root, '.env.local'), 'GREETING=local\nAPP_ENV=production\n')
  const local = await bin(['env:show', '--env=local'], root)
  t.is(local.code, 0, local.stderr)
  // APP_ENV=local is the app's development environment; the file's own APP_ENV loses to the flag.
  t.regex(local.stdout, /^env=development greeting=local only=yes$/m)
  t.regex((await bin(['--env', 'local', 'env:show'], root)).stdout, /^env=development greeting=local/m)
  // A real variable still wins over the files; no .env.<name> only sets APP_ENV.
  t.regex((await bin(['env:show', '--env=local'], root, { GREETING: 'real' })).stdout, /greeting=real/)
  t.regex((await bin(['env:show', '--env=development'], root)).stdout, /^env=development greeting=base/m)
  t.regex((await bin(['env:show'], root)).stdout, /^env=test greeting=base/m)
  // Production through --env is production: destructive commands ask for --force.
  const refused = await bin(['migrate', '--env=production'], root, { APP_URL: 'https://shop.example.com' })
  t.is(refused.code, 1)
  t.regex(refused.stderr, /Refusing to run "migrate" in production/)
  for (const bad of [['--env'], ['--env=../secrets'], ['--env=']]) {
    const result = await bin(['env:show', ...bad], root)
    t.is(result.code, 1, bad.join(' '))
    t.regex(result.stderr, /--env (needs|takes) an environment name/)
  }
})
