import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { generateAppKey } from '../../../core/index.ts'
import { createTestApp } from '../../../core/testing/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { cli, emptyDir } from './cli-harness.ts'

/** An app with TypeScript in every folder Kiln discovers, plus files a build must leave out. */
function typedApp(manifest = true): string {
  return tempApp({
    'config/app.ts': `import { defineConfig } from 'kiln-framework'\nexport default defineConfig({ name: 'Built' })\n`,
    'config/database.ts': `export default { default: 'main', connections: { main: { driver: 'sqlite', filename: 'database/app.sqlite' } } }\n`,
    'routes/web.ts': `import { defineRoutes } from 'kiln-framework'\nimport { greeting } from '../app/greeting.ts'\nexport default defineRoutes((Route) => { Route.get('/', () => greeting('built')) })\n`,
    'app/greeting.ts': `/** Typed, so the build must strip the types. */\nexport function greeting(name: string): string {\n  return \`hello from the \${name} app\`\n}\n`,
    'database/migrations/0001_create_notes.ts': `import { increments } from 'kiln-framework'\nimport type { Kysely } from 'kysely'\nexport async function up(db: Kysely<unknown>) { await db.schema.createTable('notes').addColumn('id', ...increments(db)).execute() }\nexport async function down(db: Kysely<unknown>) { await db.schema.dropTable('notes').execute() }\n`,
    'resources/views/home.hbs': '<p>{{name}}</p>\n',
    'public/app.css': 'body { margin: 0 }\n',
    // Without one, the app resolves kiln-framework as this repository's own package: a built app with its own
    // package.json needs its own npm install (tests/package does that).
    ...(manifest ? { 'package.json': '{ "name": "built", "type": "module" }\n' } : {}),
    '.env.example': 'APP_KEY=\n',
    '.env': `APP_KEY=${generateAppKey()}\n`,
    'tests/home.test.ts': `import test from 'ava'\ntest('x', (t) => t.pass())\n`,
    'node_modules/left-out/index.js': 'export {}\n',
    'storage/sessions/abc.json': '{}\n',
    'database/app.sqlite': '',
  })
}

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name
    return entry.isDirectory() ? filesUnder(dir, rel) : [rel]
  })
}

test('kiln build compiles the TypeScript to JavaScript in build/, copies the rest, and leaves out tests, secrets, state and dependencies', async (t) => {
  const root = typedApp()
  const result = await cli(['build'], root)
  t.is(result.code, 0, result.stderr)
  t.regex(result.stdout, /^Built 5 TypeScript files and copied 4 others into build\/\.$/m)
  const build = join(root, 'build')
  t.deepEqual(filesUnder(build).sort(), [
    '.env.example',
    '.kiln-build.json',
    'app/greeting.js',
    'config/app.js',
    'config/database.js',
    'database/migrations/0001_create_notes.js',
    'package.json',
    'public/app.css',
    'resources/views/home.hbs',
    'routes/web.js',
  ])
  t.true(existsSync(join(build, 'storage')), 'an empty storage/ for the running app')
  const routes = readFileSync(join(build, 'routes/web.js'), 'utf8')
  t.regex(routes, /from "\.\.\/app\/greeting\.js"|from '\.\.\/app\/greeting\.js'/)
  t.notRegex(readFileSync(join(build, 'app/greeting.js'), 'utf8'), /: string/)
})

test('the built app boots from its .js files: config, routes, imports between them and migrations', async (t) => {
  const root = typedApp(false)
  t.is((await cli(['build'], root)).code, 0)
  const build = join(root, 'build')
  const migrated = await cli(['migrate'], build, { APP_ENV: 'test', APP_KEY: generateAppKey() })
  t.is(migrated.code, 0, migrated.stderr)
  t.is(migrated.stdout, 'Migrated: 0001_create_notes\n')
  const app = await createTestApp({ root: build, env: { APP_KEY: generateAppKey() } })
  t.teardown(() => app.close())
  t.is(app.config.get('app.name'), 'Built')
  const response = await app.request('/')
  t.is(response.status, 200)
  t.is(await response.text(), 'hello from the built app')
})

test('kiln build again replaces the previous build; --out builds into another folder of the app', async (t) => {
  const root = typedApp()
  t.is((await cli(['build'], root)).code, 0)
  t.is((await cli(['build'], root)).code, 0)
  t.false(existsSync(join(root, 'build/build')), 'the build is never built into itself')
  const other = await cli(['build', '--out=release'], root)
  t.is(other.code, 0, other.stderr)
  t.true(existsSync(join(root, 'release/routes/web.js')))
  t.false(existsSync(join(root, 'release/build')), 'the earlier build is not copied into the new one')
})

test('a build over a build keeps what the operator put there (.env, node_modules/, storage/, the SQLite file) and drops the output of a deleted source', async (t) => {
  const root = typedApp()
  writeFileSync(
    join(root, 'routes/api.ts'),
    "import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/ping', () => 'pong') })\n",
  )
  writeFileSync(join(root, 'resources/views/old.hbs'), '<p>old</p>\n')
  t.is((await cli(['build'], root)).code, 0)
  const build = join(root, 'build')
  t.true(existsSync(join(build, 'routes/api.js')))
  // What the operator does on the server: settings, an install, the running app's files, a database.
  writeFileSync(join(build, '.env'), 'APP_ENV=production\nAPP_KEY=kept\nAPP_URL=https://shop.example.com\n')
  mkdirSync(join(build, 'node_modules/some-package'), { recursive: true })
  writeFileSync(join(build, 'node_modules/some-package/index.js'), 'export {}\n')
  mkdirSync(join(build, 'storage/app/avatars'), { recursive: true })
  writeFileSync(join(build, 'storage/app/avatars/1.png'), 'png')
  writeFileSync(join(build, 'database/app.sqlite'), 'rows')
  writeFileSync(join(build, 'ecosystem.config.cjs'), 'module.exports = {}\n')
  // The developer deletes a route file and a view, and changes another file.
  rmSync(join(root, 'routes/api.ts'))
  rmSync(join(root, 'resources/views/old.hbs'))
  writeFileSync(join(root, 'app/greeting.ts'), 'export function greeting(name: string): string {\n  return `hi from ${name}`\n}\n')

  const again = await cli(['build'], root)
  t.is(again.code, 0, again.stderr)
  t.is(readFileSync(join(build, '.env'), 'utf8'), 'APP_ENV=production\nAPP_KEY=kept\nAPP_URL=https://shop.example.com\n')
  t.true(existsSync(join(build, 'node_modules/some-package/index.js')), 'node_modules/ is kept')
  t.is(readFileSync(join(build, 'storage/app/avatars/1.png'), 'utf8'), 'png')
  t.is(readFileSync(join(build, 'database/app.sqlite'), 'utf8'), 'rows')
  t.true(existsSync(join(build, 'ecosystem.config.cjs')), "a file the operator added is not the build's to remove")
  t.false(existsSync(join(build, 'routes/api.js')), 'the deleted route file does not linger')
  t.false(existsSync(join(build, 'resources/views/old.hbs')), 'the deleted view does not linger')
  t.regex(readFileSync(join(build, 'app/greeting.js'), 'utf8'), /hi from/)
  t.regex(again.stdout, /^Kept what was already in build\/: \.env, node_modules\/, storage\/, database\/app\.sqlite\.$/m)
  t.regex(again.stdout, /^Removed 2 files of the previous build whose source is gone\.$/m)
  // The .env sets what production needs and node_modules/ is there with unchanged dependencies: no npm ci, no APP_ENV prefix.
  t.notRegex(again.stdout, /npm ci/)
  t.regex(again.stdout, /^ {2}npx kiln migrate --force\n {2}npx kiln serve$/m)
})

test('the closing lines work in production: migrate --force, npm ci when there is no node_modules/, and the settings a build without .env needs', async (t) => {
  const root = typedApp()
  const result = await cli(['build'], root)
  t.is(result.code, 0, result.stderr)
  t.regex(result.stdout, /^Run it in production:\n {2}cd build\n {2}npm ci --omit=dev\n/m)
  t.regex(result.stdout, /# set APP_ENV, APP_KEY, APP_URL in build\/\.env or the environment: APP_ENV=production, APP_KEY from `npx kiln key:generate --show`/)
  t.regex(result.stdout, /^ {2}APP_ENV=production npx kiln migrate --force\n {2}APP_ENV=production npx kiln serve$/m)
  t.notRegex(result.stdout, /Kept what was already/)
})

test("a build folder from before the build list: the operator's files are kept, the rest is replaced", async (t) => {
  const root = typedApp()
  const build = join(root, 'build')
  mkdirSync(join(build, 'routes'), { recursive: true })
  mkdirSync(join(build, 'node_modules/x'), { recursive: true })
  writeFileSync(join(build, 'routes/removed-long-ago.js'), 'export default () => {}\n')
  writeFileSync(join(build, '.env'), 'APP_KEY=kept\n')
  writeFileSync(join(build, 'node_modules/x/index.js'), '')
  t.is((await cli(['build'], root)).code, 0)
  t.false(existsSync(join(build, 'routes/removed-long-ago.js')))
  t.is(readFileSync(join(build, '.env'), 'utf8'), 'APP_KEY=kept\n')
  t.true(existsSync(join(build, 'node_modules/x/index.js')))
  t.true(existsSync(join(build, 'routes/web.js')))
})

test("a build list that names files outside the build, or the operator's, removes none of them", async (t) => {
  const root = typedApp()
  t.is((await cli(['build'], root)).code, 0)
  const build = join(root, 'build')
  writeFileSync(join(root, 'outside.txt'), 'keep me')
  writeFileSync(join(build, '.env'), 'APP_KEY=kept\n')
  writeFileSync(
    join(build, '.kiln-build.json'),
    JSON.stringify({ files: ['../outside.txt', '/etc/hostname', '.env', 'node_modules/x.js', 'storage/a', 'config/../../outside.txt'] }),
  )
  t.is((await cli(['build'], root)).code, 0)
  t.is(readFileSync(join(root, 'outside.txt'), 'utf8'), 'keep me')
  t.is(readFileSync(join(build, '.env'), 'utf8'), 'APP_KEY=kept\n')
})

test('kiln build outside an app, or out of the app: one line and exit code 1', async (t) => {
  const none = await cli(['build'], emptyDir())
  t.is(none.code, 1)
  t.regex(none.stderr, /^No application in .+ \(no config\/ folder\): run kiln build in the app's folder\.\n$/)
  const outside = await cli(['build', '--out=../elsewhere'], typedApp())
  t.is(outside.code, 1)
  t.regex(outside.stderr, /^--out must name a folder directly inside the app, not .+elsewhere\.\n$/)
})
