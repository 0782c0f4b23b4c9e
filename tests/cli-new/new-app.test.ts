import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { parseEnv } from 'node:util'
import test from 'ava'
import { BIN, cleanEnv, run } from './run.ts'

const KILN_ROOT = realpathSync(new URL('../../', import.meta.url)).replace(/\/$/, '')

function tempParent(t: { teardown(fn: () => unknown): void }): string {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'kiln-new-')))
  t.teardown(() => rmSync(parent, { recursive: true, force: true }))
  return parent
}

test('kiln new with no terminal and no flag creates a bootable app without installing, and prints every command left to run', async (t) => {
  const parent = tempParent(t)
  const made = await run(process.execPath, [BIN, 'new', 'My Shop'], { cwd: parent })
  t.is(made.code, 0, made.stderr)
  const root = join(parent, 'My Shop')
  t.false(existsSync(join(root, 'node_modules')), 'nothing installed without a terminal to ask on')
  t.is(
    made.stdout.slice(made.stdout.indexOf('Next steps:')),
    [
      'Next steps:',
      '  cd "My Shop"',
      '  npm install',
      '  npx kiln migrate',
      '  npx kiln db:seed',
      '  npm run dev',
      '',
      'Then open http://127.0.0.1:3000',
      'and log in as test@example.com (or maria@example.com, sam@example.com) with the password "password".',
      '',
    ].join('\n'),
  )

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  t.is(pkg.name, 'my-shop')
  t.is(pkg.type, 'module')
  // Every package the starter's code imports, at the very version installed beside the clone (so TypeScript sees one
  // kysely and one zod, not two copies whose classes differ); the framework itself from this clone.
  const installed = (name: string) => JSON.parse(readFileSync(join(KILN_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string
  // Absolute, unless the clone and the app share a folder below the filesystem root (a clone in /tmp, as CI may have).
  const shared =
    relative(root, KILN_ROOT)
      .split('/')
      .filter((part) => part === '..').length < root.split('/').filter(Boolean).length
  const path = shared ? relative(realpathSync(root), KILN_ROOT) : KILN_ROOT
  // better-sqlite3 (an optional peer of Kiln) for the starter's SQLite default; chokidar and pino-pretty for kiln dev.
  t.deepEqual(pkg.dependencies, {
    'better-sqlite3': installed('better-sqlite3'),
    'kiln-framework': `file:${path}`,
    kysely: installed('kysely'),
    zod: installed('zod'),
  })
  t.deepEqual(pkg.devDependencies, {
    '@types/node': installed('@types/node'),
    ava: installed('ava'),
    chokidar: installed('chokidar'),
    'pino-pretty': installed('pino-pretty'),
    tsx: installed('tsx'),
    typescript: installed('typescript'),
  })
  t.like(pkg.scripts, { dev: 'kiln dev', start: 'kiln serve', migrate: 'kiln migrate', test: 'ava' })
  t.like(pkg.ava, { files: ['tests/**/*.test.ts'], extensions: { ts: 'module' }, nodeArguments: ['--conditions=kiln-source', '--import=tsx'] })
  // Linked to a clone, the app type-checks and tests against the framework's sources.
  t.deepEqual(JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions.customConditions, ['kiln-source'])
  for (const file of [
    'tsconfig.json',
    'README.md',
    'config/storage.ts',
    'public/app.css',
    'public/favicon.ico',
    'tests/example.test.ts',
    'tests/components/todo-list.test.ts',
    'app/forms/todo-form.ts',
    '.gitignore',
  ]) {
    t.true(existsSync(join(root, file)), file)
  }
  t.regex(readFileSync(join(root, 'README.md'), 'utf8'), /^# My Shop$/m)

  const env = parseEnv(readFileSync(join(root, '.env'), 'utf8'))
  t.like(env, {
    APP_NAME: 'My Shop',
    APP_ENV: 'local',
    APP_DEBUG: 'true',
    DB_CONNECTION: 'sqlite',
    DB_DATABASE: 'database/database.sqlite',
    BROADCAST_CONNECTION: 'log',
  })
  t.regex(env.APP_KEY ?? '', /^base64:[A-Za-z0-9+/]{43}=$/)
  const example = parseEnv(readFileSync(join(root, '.env.example'), 'utf8'))
  t.is(example.APP_KEY, '', 'the committed example holds no key')
  t.is(example.APP_DEBUG, 'false')
})

test('two apps get different keys, and an app beside the clone reaches it by a relative file: path', async (t) => {
  const parent = tempParent(t)
  t.is((await run(process.execPath, [BIN, 'new', 'one', '--no-install'], { cwd: parent })).code, 0)
  t.is((await run(process.execPath, [BIN, 'new', 'two', '--no-install'], { cwd: parent })).code, 0)
  const key = (name: string) => parseEnv(readFileSync(join(parent, name, '.env'), 'utf8')).APP_KEY
  t.not(key('one'), key('two'))

  const sibling = join(KILN_ROOT, '..', `kiln-new-sibling-${process.pid}`)
  t.teardown(() => rmSync(sibling, { recursive: true, force: true }))
  const made = await run(process.execPath, [BIN, 'new', sibling, '--no-install'], { cwd: KILN_ROOT })
  t.is(made.code, 0, made.stderr)
  const dependency = JSON.parse(readFileSync(join(sibling, 'package.json'), 'utf8')).dependencies['kiln-framework']
  t.is(dependency, `file:../${KILN_ROOT.split('/').pop()}`)
  t.regex(made.stdout, new RegExp(`\\n  cd \\.\\./kiln-new-sibling-${process.pid}\\n`))
})

test('kiln new into a folder that is not empty: one line on stderr, exit code 1, nothing written', async (t) => {
  const parent = tempParent(t)
  t.is((await run(process.execPath, [BIN, 'new', 'my-app', '--no-install'], { cwd: parent })).code, 0)
  const again = await run(process.execPath, [BIN, 'new', 'my-app', '--install'], { cwd: parent })
  t.is(again.code, 1)
  t.is(again.stderr, 'Cannot create the app: my-app exists and is not empty.\n')
  t.is(again.stdout, '')
  t.false(existsSync(join(parent, 'my-app', 'node_modules')))

  writeFileSync(join(parent, 'notes.txt'), 'x')
  const file = await run(process.execPath, [BIN, 'new', 'notes.txt'], { cwd: parent })
  t.is(file.code, 1)
  t.is(file.stderr, 'Cannot create the app: notes.txt exists and is not a folder.\n')

  // An empty folder is fine.
  mkdirSync(join(parent, 'empty'))
  t.is((await run(process.execPath, [BIN, 'new', 'empty', '--no-install'], { cwd: parent })).code, 0)
})

test('a failing npm install ends with one line naming it and exit code 1; the created app stays', async (t) => {
  const parent = tempParent(t)
  mkdirSync(join(parent, 'cache'))
  // A registry that refuses connections and an empty cache: npm cannot fetch anything.
  const env = cleanEnv({
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_cache: join(parent, 'cache'),
    npm_config_fetch_retries: '0',
    npm_config_offline: 'false',
  })
  const made = await run(process.execPath, [BIN, 'new', 'my-app', '--install'], { cwd: parent, env })
  t.is(made.code, 1)
  const last = made.stderr.trimEnd().split('\n').at(-1)
  t.is(
    last,
    'npm install failed (exit code 1) in my-app: the app is created; fix the error above, then run npm install, npx kiln migrate and npx kiln db:seed there.',
  )
  t.notRegex(made.stderr, /^\s+at .*kiln/m, 'no stack from Kiln')
  t.true(existsSync(join(parent, 'my-app', 'package.json')))
})

test('kiln new --framework: a tarball or a folder becomes a file: path from the app, a version range is written as it is; only a clone is linked to its sources', async (t) => {
  const parent = tempParent(t)
  mkdirSync(join(parent, 'downloads'))
  writeFileSync(join(parent, 'downloads', 'kiln-framework-0.1.0.tgz'), '')
  const spec = (app: string) =>
    JSON.parse(readFileSync(join(parent, app, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; ava: { nodeArguments: string[] } }
  const conditions = (app: string) => JSON.parse(readFileSync(join(parent, app, 'tsconfig.json'), 'utf8')).compilerOptions.customConditions

  // A tarball made by npm pack, given from where the command runs: written from the app's folder.
  const tarball = await run(process.execPath, [BIN, 'new', 'apps/shop', '--framework', './downloads/kiln-framework-0.1.0.tgz', '--no-install', '--no-git'], {
    cwd: parent,
  })
  t.is(tarball.code, 0, tarball.stderr)
  t.is(spec('apps/shop').dependencies['kiln-framework'], 'file:../../downloads/kiln-framework-0.1.0.tgz')
  t.deepEqual(spec('apps/shop').ava.nodeArguments, ['--import=tsx'], 'a packed Kiln is used through its build')
  t.is(conditions('apps/shop'), undefined)

  // A version range (or a tag) for the registry.
  const range = await run(process.execPath, [BIN, 'new', 'ranged', '--framework=^0.1.0', '--no-install', '--no-git'], { cwd: parent })
  t.is(range.code, 0, range.stderr)
  t.is(spec('ranged').dependencies['kiln-framework'], '^0.1.0')
  t.deepEqual(spec('ranged').ava.nodeArguments, ['--import=tsx'])

  // A clone's folder, relative to where the command runs: linked to its sources.
  const cloneFromHere = relative(parent, KILN_ROOT)
  const clone = await run(process.execPath, [BIN, 'new', 'linked', '--framework', `file:${cloneFromHere}`, '--no-install', '--no-git'], { cwd: parent })
  t.is(clone.code, 0, clone.stderr)
  t.regex(spec('linked').dependencies['kiln-framework']!, /^file:/)
  t.is(realpathSync(resolve(parent, 'linked', spec('linked').dependencies['kiln-framework']!.slice('file:'.length))), KILN_ROOT)
  t.deepEqual(conditions('linked'), ['kiln-source'])
})

test('kiln new --framework refuses what is not Kiln before writing anything: one line, exit code 1', async (t) => {
  const parent = tempParent(t)
  mkdirSync(join(parent, 'other'))
  writeFileSync(join(parent, 'other', 'package.json'), '{"name":"other"}')
  writeFileSync(join(parent, 'notes.txt'), 'x')
  const cases: [string, string][] = [
    ['./missing.tgz', `--framework: nothing at ${join(parent, 'missing.tgz')}.\n`],
    ['./other', `--framework: ${join(parent, 'other')} is not Kiln (its package.json does not name kiln-framework).\n`],
    ['./notes.txt', `--framework: ${join(parent, 'notes.txt')} is neither a folder nor a tarball (.tgz).\n`],
  ]
  for (const [flag, message] of cases) {
    const made = await run(process.execPath, [BIN, 'new', 'my-app', '--framework', flag, '--no-install'], { cwd: parent })
    t.is(made.code, 1, flag)
    t.is(made.stderr, message)
    t.false(existsSync(join(parent, 'my-app')), 'nothing created')
  }
})
