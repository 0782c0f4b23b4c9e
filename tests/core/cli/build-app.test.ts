import { existsSync, readdirSync, readFileSync } from 'node:fs'
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

test('kiln build outside an app, or out of the app: one line and exit code 1', async (t) => {
  const none = await cli(['build'], emptyDir())
  t.is(none.code, 1)
  t.regex(none.stderr, /^No application in .+ \(no config\/ folder\): run kiln build in the app's folder\.\n$/)
  const outside = await cli(['build', '--out=../elsewhere'], typedApp())
  t.is(outside.code, 1)
  t.regex(outside.stderr, /^--out must name a folder directly inside the app, not .+elsewhere\.\n$/)
})
