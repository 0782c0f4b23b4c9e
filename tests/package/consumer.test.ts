import test from 'ava'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, cleanEnv, run, start } from '../cli-new/run.ts'
import { packKiln } from '../fixtures/pack-kiln.ts'

const OPTIONAL = ['ioredis', 'bullmq', 'pg', 'pusher']
// chokidar is not among them: unstorage (a dependency of Kiln) depends on it, so production has it anyway.
const DEVELOPMENT = ['pino-pretty', 'tsx', 'typescript']

/** A production process: nothing preloaded, nothing from the clone's shell or npm. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra)
  delete env.NODE_OPTIONS
  return env
}

async function ok(t: { is: (a: unknown, b: unknown, m?: string) => void }, step: string, result: Promise<{ code: number; stdout: string; stderr: string }>) {
  const { code, stdout, stderr } = await result
  t.is(code, 0, `${step} failed:\n${stdout}\n${stderr}`)
  if (code !== 0) throw new Error(`${step} failed`)
  return stdout
}

test('a consumer installs the packed tarball by a relative path, type-checks with skipLibCheck false, builds with kiln build and serves the --omit=dev install on plain node', async (t) => {
  // npm pack builds the framework, then two npm installs: minutes on a cold cache.
  t.timeout(900_000)
  const work = mkdtempSync(join(tmpdir(), 'kiln-consumer-'))
  t.teardown(() => rmSync(work, { recursive: true, force: true }))

  const { filename, files } = await packKiln(work)
  const paths = new Set(files)
  for (const path of ['LICENSE', 'CHANGELOG.md', 'dist/core/index.js.map', 'dist/core/index.d.ts.map']) t.true(paths.has(path), `the tarball has ${path}`)

  // An empty folder; the app names the tarball by a relative path, as kiln new --framework writes it.
  await ok(t, 'kiln new', run(process.execPath, [BIN, 'new', 'shop', '--no-install', `--framework=./${filename}`], { cwd: work }))
  const app = join(work, 'shop')
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  t.is(manifest.dependencies['kiln-framework'], `file:../${filename}`)
  t.truthy(manifest.dependencies['better-sqlite3'], 'the SQLite app depends on better-sqlite3 itself (an optional peer of Kiln)')
  for (const name of ['chokidar', 'pino-pretty']) t.truthy(manifest.devDependencies[name], `${name} is a development dependency of the app`)
  const tsconfig = JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8'))
  tsconfig.compilerOptions.skipLibCheck = false
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
  await ok(t, 'npm install', run('npm', ['install', '--no-fund', '--no-audit'], { cwd: app, env: cleanEnv() }))

  // The published manifest: no kiln-source condition (its targets are not in the tarball), the package's metadata.
  const installed = join(app, 'node_modules/kiln-framework')
  const published = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))
  t.false(JSON.stringify(published.exports).includes('kiln-source'), 'no kiln-source condition in the published exports')
  t.like(published, { license: 'MIT', peerDependenciesMeta: { 'better-sqlite3': { optional: true } } })
  for (const field of ['repository', 'bugs', 'homepage', 'keywords']) t.truthy(published[field], `package.json has ${field}`)
  for (const name of ['better-sqlite3', 'chokidar', 'pino-pretty', 'tweetnacl']) t.falsy(published.dependencies[name], `${name} is not a dependency`)
  for (const name of OPTIONAL) t.false(existsSync(join(app, 'node_modules', name)), `${name} is an optional peer: not installed`)
  // Source maps carry their sources, which the package does not ship. The JavaScript is bundled (an entry point such
  // as dist/core/index.js re-exports shared chunks, so its own map may name no source): every JavaScript map
  // carries the TypeScript of each source it names (the compiled files' maps lead to it).
  const { sourcesContent } = JSON.parse(readFileSync(join(installed, 'dist/core/index.d.ts.map'), 'utf8')) as { sourcesContent?: string[] }
  t.regex(sourcesContent?.[0] ?? '', /export /, 'dist/core/index.d.ts.map has its TypeScript source inside')
  const maps = [...paths].filter((path) => path.startsWith('dist/') && path.endsWith('.js.map'))
  const named = maps.map((path) => JSON.parse(readFileSync(join(installed, path), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] })
  t.true(
    named.some((map) => map.sources.some((source) => source.endsWith('core/application/application.ts'))),
    'a JavaScript map leads to the TypeScript',
  )
  for (const [index, map] of named.entries()) {
    t.is(map.sourcesContent?.length, map.sources.length, `${maps[index]} carries its sources`)
    t.true(map.sourcesContent?.every((text) => typeof text === 'string' && text.length > 0) ?? false, `${maps[index]} has every source's text`)
  }

  // Kiln's declarations and the app type-check with skipLibCheck false, without any optional package. h3's and
  // unstorage's own declarations do not (unstorage's drivers import packages an app does not have; h3 overrides a
  // member Error lacks): their problems, whatever Kiln ships, so they are left out of the check and logged.
  const check = await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '--noEmit', '--pretty', 'false'], { cwd: app, env: plainEnv() })
  const errors = check.stdout.split('\n').filter((line) => /error TS\d+/.test(line))
  const upstream = errors.filter((line) => /^node_modules\/(h3|unstorage)\//.test(line))
  if (upstream.length > 0) t.log(`${upstream.length} errors in h3's and unstorage's own declarations`)
  t.deepEqual(
    errors.filter((line) => !upstream.includes(line)),
    [],
  )

  // kiln build moves the relative tarball path one folder deeper.
  await ok(t, 'kiln build', run(process.execPath, [join(installed, 'bin/kiln.js'), 'build'], { cwd: app, env: plainEnv() }))
  t.is(JSON.parse(readFileSync(join(app, 'build/package.json'), 'utf8')).dependencies['kiln-framework'], `file:../../${filename}`)
  // To a server folder as deep as build/ (the relative path still holds) with no development node_modules above it.
  mkdirSync(join(work, 'server'))
  const build = join(work, 'server/shop')
  renameSync(join(app, 'build'), build)

  await ok(t, 'npm install --omit=dev', run('npm', ['install', '--omit=dev', '--no-fund', '--no-audit'], { cwd: build, env: cleanEnv() }))
  t.true(existsSync(join(build, 'node_modules/kiln-framework/bin/kiln.js')), 'the build has its kiln binary')
  t.true(existsSync(join(build, 'node_modules/better-sqlite3')), 'better-sqlite3, the app dependency, is installed')
  for (const name of [...DEVELOPMENT, ...OPTIONAL]) t.false(existsSync(join(build, 'node_modules', name)), `${name} is not in the production install`)

  copyFileSync(join(app, '.env'), join(build, '.env'))
  const env = plainEnv({ APP_ENV: 'production' })
  const kiln = join(build, 'node_modules/kiln-framework/bin/kiln.js')
  await ok(t, 'kiln migrate', run(process.execPath, [kiln, 'migrate', '--force'], { cwd: build, env }))
  const server = await start(process.execPath, [kiln, 'serve', '--port=0'], { cwd: build, env }, /on (http:\S+?)\/?$/m)
  t.teardown(server.stop)
  const response = await fetch(`${server.match[1]}/`)
  t.is(response.status, 200, server.output())
  t.regex(await response.text(), /<html/i)
  await server.stop()

  // Without better-sqlite3 (an optional peer now), the boot names the package to install.
  renameSync(join(build, 'node_modules/better-sqlite3'), join(work, 'better-sqlite3-aside'))
  const missing = await run(process.execPath, [kiln, 'migrate', '--force'], { cwd: build, env })
  t.is(missing.code, 1, missing.stdout)
  t.regex(missing.stderr, /needs the package "better-sqlite3", which is not installed/)
  t.regex(missing.stderr, /npm install better-sqlite3/)
})
