import test from 'ava'
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, cleanEnv, run, start } from '../cli-new/run.ts'
import { packKiln } from '../fixtures/pack-kiln.ts'

const OPTIONAL = ['ioredis', 'bullmq', 'pg', 'pusher']

/** The environment of a production process: nothing preloaded, nothing from the clone's shell or npm. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra)
  delete env.NODE_OPTIONS
  return env
}

async function ok(
  t: { is: (a: unknown, b: unknown, m?: string) => void },
  step: string,
  result: Promise<{ code: number; stdout: string; stderr: string }>,
): Promise<string> {
  const { code, stdout, stderr } = await result
  t.is(code, 0, `${step} failed:\n${stdout}\n${stderr}`)
  if (code !== 0) throw new Error(`${step} failed`)
  return stdout
}

test('npm pack gives a package that a fresh app installs, builds with kiln build and runs on plain node without tsx', async (t) => {
  // npm pack compiles the framework, then two npm installs: minutes on a cold cache.
  t.timeout(600_000)
  const work = mkdtempSync(join(tmpdir(), 'kiln-package-'))
  t.teardown(() => rmSync(work, { recursive: true, force: true }))

  // The tarball: compiled JavaScript and declarations, the files the runtime reads, no sources, tests or bench.
  const { files: paths, tarball } = await packKiln(work)
  for (const path of [
    'bin/kiln.js',
    'dist/core/index.js',
    'dist/core/index.d.ts',
    'dist/plugins/comp/index.js',
    'dist/plugins/comp/dist/comp.js',
    'dist/packages/rt/dist/rt.js',
    'dist/packages/rt/dist/rt-sealed.js',
    'dist/plugins/tok/migrations/0001_01_01_000001_create_personal_access_tokens_table.js',
    'dist/plugins/comp/features/pagination/pagination.hbs',
    'dist/plugins/tok/stubs/tok.ts',
    'stubs/controller.stub',
    'app-template/config/app.ts',
  ]) {
    t.true(paths.includes(path), `the tarball has ${path}`)
  }
  t.deepEqual(
    paths.filter((path) => /^(tests|bench|docs|tmp|scripts|node_modules|core|plugins|drivers|packages)\//.test(path) || /\.sqlite|(^|\/)\.env$/.test(path)),
    [],
  )

  // A fresh app from the clone's own `kiln new`, then on the tarball as a user's app would be on the published package.
  await ok(t, 'kiln new', run(process.execPath, [BIN, 'new', 'shop', '--no-install'], { cwd: work }))
  const app = join(work, 'shop')
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  pkg.dependencies['kiln-framework'] = `file:${tarball}`
  pkg.ava.nodeArguments = ['--import=tsx']
  writeFileSync(join(app, 'package.json'), JSON.stringify(pkg, null, 2))
  const tsconfig = JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8'))
  delete tsconfig.compilerOptions.customConditions
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))

  await ok(t, 'npm install', run('npm', ['install', '--no-fund', '--no-audit'], { cwd: app, env: cleanEnv() }))
  const installed = join(app, 'node_modules/kiln-framework')
  t.false(existsSync(join(installed, 'core')), 'the installed framework carries no TypeScript sources')
  for (const name of OPTIONAL) t.false(existsSync(join(app, 'node_modules', name)), `${name} is an optional peer: not installed`)

  // The app type-checks against the package's declaration files.
  await ok(
    t,
    'tsc --noEmit in the app',
    run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '--noEmit', '--pretty', 'false'], { cwd: app, env: plainEnv() }),
  )

  // The installed kiln makes new apps that depend on its version, not on a path into another app's node_modules.
  await ok(t, 'installed kiln new', run(process.execPath, [join(installed, 'bin/kiln.js'), 'new', 'second', '--no-install'], { cwd: work, env: plainEnv() }))
  const second = JSON.parse(readFileSync(join(work, 'second/package.json'), 'utf8'))
  t.is(second.dependencies['kiln-framework'], `^${JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version}`)
  t.deepEqual(second.ava.nodeArguments, ['--import=tsx'])
  t.is(JSON.parse(readFileSync(join(work, 'second/tsconfig.json'), 'utf8')).compilerOptions.customConditions, undefined)

  // The app's TypeScript is compiled once; the build holds JavaScript only (and tok's config stub, in Kiln, not here).
  await ok(t, 'kiln build', run(process.execPath, [join(installed, 'bin/kiln.js'), 'build'], { cwd: app, env: plainEnv() }))
  t.deepEqual(
    sourceFiles(join(app, 'build')).filter((file) => file.endsWith('.ts')),
    [],
  )
  // Shipped apart from the app, as to a server: Node's lookup must not reach the development node_modules above it.
  const build = join(work, 'release')
  renameSync(join(app, 'build'), build)
  t.true(existsSync(join(build, 'routes/web.js')) && existsSync(join(build, 'resources/views/home.hbs')) && existsSync(join(build, 'public/app.css')))

  // Production: dependencies only, so neither tsx nor TypeScript is there to load.
  await ok(t, 'npm install --omit=dev', run('npm', ['install', '--omit=dev', '--no-fund', '--no-audit'], { cwd: build, env: cleanEnv() }))
  t.false(existsSync(join(build, 'node_modules/tsx')), 'tsx is not installed in the build')
  t.throws(() => createRequire(join(build, 'package.json')).resolve('tsx'), { code: 'MODULE_NOT_FOUND' })
  t.throws(() => createRequire(join(build, 'node_modules/kiln-framework/bin/kiln.js')).resolve('tsx'), { code: 'MODULE_NOT_FOUND' })
  for (const name of OPTIONAL) t.false(existsSync(join(build, 'node_modules', name)), `${name} is not in the production install`)
  // Pointed at a TypeScript app with no tsx anywhere, the production kiln says so in one line.
  const typed = await run(process.execPath, [join(build, 'node_modules/kiln-framework/bin/kiln.js'), '--root', join(work, 'second'), 'route:list'], {
    cwd: build,
    env: plainEnv(),
  })
  t.is(typed.code, 1)
  t.regex(
    typed.stderr,
    /^kiln: The app in .+second is TypeScript and tsx is not installed: run npm install --save-dev tsx, or build it with kiln build and run the built app\. \(--verbose shows the stack\)\n$/,
  )
  const size = execFileSync('du', ['-sh', join(build, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]
  const count =
    execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: build, encoding: 'utf8', env: cleanEnv() }).trim().split('\n').length - 1
  t.log(`production install of a fresh app: node_modules ${size}, ${count} packages`)

  // The app's settings, migrations with the compiled files, then plain node serves the home page.
  copyFileSync(join(app, '.env'), join(build, '.env'))
  const env = plainEnv({ APP_ENV: 'production' })
  const kiln = join(build, 'node_modules/kiln-framework/bin/kiln.js')
  t.regex(await ok(t, 'kiln migrate', run(process.execPath, [kiln, 'migrate', '--force'], { cwd: build, env })), /Migrated: 0001_create_users_table/)
  const server = await start(process.execPath, [kiln, 'serve', '--port=0'], { cwd: build, env }, /on (http:\S+?)\/?$/m)
  t.teardown(server.stop)
  const response = await fetch(`${server.match[1]}/`)
  t.is(response.status, 200, server.output())
  t.regex(await response.text(), /<html/i)
  const script = await fetch(`${server.match[1]}/comp/comp.js`)
  t.is(script.status, 200, 'the prebuilt component client is served')
  await server.stop()
})

/** Files under `dir`, without node_modules. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : [path]
  })
}
