import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'
import { ANSI, bin, cli } from './cli-harness.ts'

const app = () =>
  tempApp({
    'config/app.ts': `import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n`,
    'routes/web.ts': `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => 'home') })\n`,
  })

test('piped output has no colour; a terminal gets colour; NO_COLOR (any value) wins over a terminal and over FORCE_COLOR', async (t) => {
  const root = app()
  const piped = await cli(['--help'], root, { APP_ENV: 'test' })
  t.is(piped.code, 0)
  t.notRegex(piped.stdout, ANSI)
  t.notRegex((await cli(['migrat'], root, { APP_ENV: 'test' })).stderr, ANSI)
  t.notRegex((await cli(['help', 'route:list'], root, { APP_ENV: 'test' })).stdout, ANSI)

  const terminal = await cli(['--help'], root, { APP_ENV: 'test' }, { tty: true })
  t.regex(terminal.stdout, ANSI)
  t.regex((await cli(['migrat'], root, { APP_ENV: 'test' }, { tty: true })).stderr, ANSI)
  // Same words either way.
  t.is(terminal.stdout.replace(/\u001b\[\d+m/g, ''), piped.stdout)

  for (const value of ['1', 'true', '']) {
    t.notRegex((await cli(['--help'], root, { APP_ENV: 'test', NO_COLOR: value }, { tty: true })).stdout, ANSI, `NO_COLOR=${value}`)
    t.notRegex((await cli(['--help'], root, { APP_ENV: 'test', NO_COLOR: value, FORCE_COLOR: '1' })).stdout, ANSI, `NO_COLOR=${value} FORCE_COLOR=1`)
  }
})

test('FORCE_COLOR=1 colours piped output; FORCE_COLOR=0 keeps a terminal plain', async (t) => {
  const root = app()
  t.regex((await cli(['--help'], root, { APP_ENV: 'test', FORCE_COLOR: '1' })).stdout, ANSI)
  t.regex((await cli(['migrat'], root, { APP_ENV: 'test', FORCE_COLOR: '1' })).stderr, ANSI)
  t.notRegex((await cli(['--help'], root, { APP_ENV: 'test', FORCE_COLOR: '0' }, { tty: true })).stdout, ANSI)
})

test('command output that is data stays plain even with colour forced', async (t) => {
  const root = app()
  const json = await cli(['route:list', '--json'], root, { APP_ENV: 'test', FORCE_COLOR: '1' })
  t.is(json.code, 0, json.stderr)
  t.is(JSON.parse(json.stdout)[0].path, '/')
})

test('the real bin: piped and NO_COLOR output are plain, FORCE_COLOR=1 output is coloured', async (t) => {
  const root = app()
  const piped = await bin(['--help'], root)
  t.is(piped.code, 0, piped.stderr)
  t.notRegex(piped.stdout, ANSI)
  t.notRegex((await bin(['migrat'], root)).stderr, ANSI)
  t.notRegex((await bin(['--help'], root, { NO_COLOR: '1', FORCE_COLOR: '1' })).stdout, ANSI)
  const forced = await bin(['--help'], root, { FORCE_COLOR: '1' })
  t.regex(forced.stdout, ANSI)
  const forcedError = await bin(['migrat'], root, { FORCE_COLOR: '1' })
  t.is(forcedError.code, 1)
  t.regex(forcedError.stderr, ANSI)
})
