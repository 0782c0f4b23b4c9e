import { existsSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, cli, emptyDir, lines, REPO_ROOT, STACK_FRAME, starterAppConfigWith, type CliResult } from './cli-harness.ts'

const app = () =>
  tempApp({
    'config/app.ts': starterAppConfigWith(
      "const boom = definePlugin({ name: 'boom', boot(app) { app.commands.register(defineCommand({ name: 'boom', description: 'Fail', run() { throw new Error('kaboom inside the command') } })) } })",
      'boom',
    ),
    'config/database.ts': `export default { default: 'sqlite', connections: { sqlite: { driver: 'sqlite', filename: 'database/test.sqlite' } } }\n`,
  })

/** Exit 1, nothing on stdout, exactly one line on stderr, no stack. */
function oneLineFailure(t: import('ava').ExecutionContext, result: CliResult, pattern: RegExp) {
  t.is(result.code, 1, result.stderr)
  t.is(result.stdout, '')
  t.is(lines(result.stderr).length, 1, result.stderr)
  t.regex(result.stderr, pattern)
  t.notRegex(result.stderr, STACK_FRAME)
}

test('an unknown command: one line that suggests the nearest, or names the commands of a namespace', async (t) => {
  const root = app()
  oneLineFailure(t, await cli(['migrat'], root), /^Unknown command "migrat"\. Did you mean "migrate"\?$/m)
  oneLineFailure(t, await cli(['make'], root), /^Unknown command "make"\. The "make" commands are: .*make:channel, .*make:comp/)
  oneLineFailure(t, await cli(['xyzzy'], root), /^Unknown command "xyzzy"\. Run `kiln --help` for the list\.$/m)
  oneLineFailure(t, await cli(['help', 'migrat'], root), /Did you mean "migrate"\?/)
  oneLineFailure(t, await cli(['--bogus'], root), /Unknown option "--bogus"/)
})

test('an unknown option: one line naming it, with the nearest known option when one is close; the command does not run', async (t) => {
  const root = app()
  oneLineFailure(t, await cli(['migrate', '--bogus'], root), /^Unknown option "--bogus" for "migrate"\. Run `kiln help migrate` for its options\.$/m)
  oneLineFailure(t, await cli(['migrate', '--conection=x'], root), /Unknown option "--conection" for "migrate"\. Did you mean "--connection"\?/)
  oneLineFailure(t, await cli(['migrate', '-x'], root), /Unknown option "-x"/)
  oneLineFailure(t, await cli(['make:channel', 'OrderChannel', '--forse'], root), /Did you mean "--force"\?/)
  t.false(existsSync(join(root, 'app/channels/order-channel.ts')), 'the command did not run')
  t.false(existsSync(join(root, 'database/test.sqlite')), 'migrate did not run')
})

test('a value of the wrong type, a missing value, a missing or an unexpected argument: one line with the usage', async (t) => {
  const root = app()
  oneLineFailure(t, await cli(['migrate:rollback', '--step=abc'], root), /^--step must be a number, got "abc"\. Usage: kiln migrate:rollback \[options\]$/m)
  oneLineFailure(t, await cli(['migrate:rollback', '--step'], root), /^--step needs a value: --step=<number>\./)
  oneLineFailure(t, await cli(['make:channel'], root), /^Missing argument <name>\. Usage: kiln make:channel <name> \[options\]$/m)
  oneLineFailure(
    t,
    await cli(['migrate', 'fresh'], root),
    /^"migrate" takes no arguments, got "fresh"\. Did you mean "migrate:fresh"\? Usage: kiln migrate \[options\]$/m,
  )
  t.false(existsSync(join(root, 'database/test.sqlite')), 'nothing ran')
  // The right spellings still work: a number as a separate word, booleans negated.
  const step = await cli(['migrate:rollback', '--step', '2'], root)
  t.is(step.code, 0, step.stderr)
})

test('a command that needs an app, outside one: says there is no application here and how to create one', async (t) => {
  const empty = tempApp()
  oneLineFailure(
    t,
    await cli(['migrate'], empty),
    /No Kiln application in .* \(no config\/ folder\), so there is no "migrate" command here\. .*Create one with `kiln new <dir>`/,
  )
  oneLineFailure(t, await cli(['migrate', '--help'], empty), /no config\/ folder/)
  // A typo of a command that needs no app is still a typo.
  oneLineFailure(t, await cli(['nwe', 'shop'], empty), /^Unknown command "nwe"\. Did you mean "new"\?$/m)
  // In the framework's own checkout, the hint names the starter app.
  oneLineFailure(t, await cli(['migrate'], REPO_ROOT), /`npx kiln --root=app-template migrate`/)
})

test('an app that fails to boot: one line with the cause, the stack only with --verbose', async (t) => {
  const broken = tempApp({ 'config/app.ts': `throw new Error('DATABASE_PASSWORD is missing')\n` })
  oneLineFailure(
    t,
    await cli(['migrate'], broken),
    /^The application in .* did not boot: Could not load config\/app\.ts: DATABASE_PASSWORD is missing \(--verbose shows the stack\)$/m,
  )
  oneLineFailure(t, await cli(['migrat'], broken), /did not boot: .*DATABASE_PASSWORD is missing/)
  const verbose = await cli(['migrate', '--verbose'], broken)
  t.is(verbose.code, 1)
  t.regex(verbose.stderr, /did not boot: .*DATABASE_PASSWORD is missing\n/)
  t.regex(verbose.stderr, STACK_FRAME)
  t.regex(verbose.stderr, /Caused by: Error: DATABASE_PASSWORD is missing\n\s+at .*config\/app\.ts/)
  // --help still lists what works without the app, and exits 1 because the app is broken.
  const help = await cli(['--help'], broken)
  t.is(help.code, 1)
  t.regex(help.stderr, /did not boot: .*DATABASE_PASSWORD is missing/)
  t.regex(help.stdout, /key:generate/)
  // key:generate needs no app, so it works where boot fails.
  t.is((await cli(['key:generate', '--show'], broken)).code, 0)
})

test('an app with a syntax error in a file it loads at boot: the one line names the file, line and column', async (t) => {
  const broken = tempApp({
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'routes/web.ts': "import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => {\n  Route.get('/', () => ({ ok: true })\n})\n",
  })
  const env = { APP_ENV: 'test', APP_KEY: `base64:${Buffer.alloc(32, 1).toString('base64')}` }
  oneLineFailure(t, await cli(['route:list'], broken, env), /did not boot: .*routes\/web\.ts:4:0: ERROR: Expected "\)" but found "\}"/)
})

test('a command that throws an unexpected error: one line, the stack only with --verbose', async (t) => {
  const root = app()
  oneLineFailure(t, await cli(['boom'], root), /^Error: kaboom inside the command \(--verbose shows the stack\)$/m)
  const verbose = await cli(['boom', '--verbose'], root)
  t.is(verbose.code, 1)
  t.regex(verbose.stderr, STACK_FRAME)
})

test('the real bin: unknown command, unknown option, wrong type, missing argument, no app, broken app: one line, exit 1, no stack', async (t) => {
  const root = app()
  const empty = emptyDir()
  const broken = tempApp({ 'config/app.ts': `throw new Error('DATABASE_PASSWORD is missing')\n` })
  const cases: Array<[string[], string, RegExp]> = [
    [['migrat'], root, /^Unknown command "migrat"\. Did you mean "migrate"\?\n$/],
    [['migrate', '--bogus'], root, /^Unknown option "--bogus" for "migrate"\./],
    [['migrate:rollback', '--step=abc'], root, /^--step must be a number, got "abc"\./],
    [['make:channel'], root, /^Missing argument <name>\. Usage: kiln make:channel <name> \[options\]\n$/],
    [['migrate'], empty, /no config\/ folder.*kiln new <dir>/],
    [['migrate'], broken, /did not boot: .*DATABASE_PASSWORD is missing/],
  ]
  for (const [argv, cwd, pattern] of cases) {
    const result = await bin(argv, cwd)
    t.is(result.code, 1, argv.join(' '))
    t.is(lines(result.stderr).length, 1, result.stderr)
    t.regex(result.stderr, pattern)
    t.notRegex(result.stderr, STACK_FRAME)
  }
})
