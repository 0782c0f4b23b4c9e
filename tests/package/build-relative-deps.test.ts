import test from 'ava'
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { emptyDir } from '../core/cli/cli-harness.ts'
import { cleanEnv, run, BIN } from '../cli-new/run.ts'

/** A folder package and a tarball beside an app that names both by relative paths, as `kiln new --framework ../kiln` writes. */
async function appBesidePackages(): Promise<{ work: string; app: string }> {
  const work = emptyDir()
  mkdirSync(join(work, 'helper'))
  writeFileSync(join(work, 'helper/package.json'), JSON.stringify({ name: 'helper', version: '1.0.0', type: 'module', main: 'index.js' }))
  writeFileSync(join(work, 'helper/index.js'), 'export const greeting = "from a folder"\n')
  mkdirSync(join(work, 'packed'))
  writeFileSync(join(work, 'packed/package.json'), JSON.stringify({ name: 'packed', version: '1.0.0', type: 'module', main: 'index.js' }))
  writeFileSync(join(work, 'packed/index.js'), 'export const greeting = "from a tarball"\n')
  const pack = await run('npm', ['pack', '--pack-destination', work], { cwd: join(work, 'packed'), env: cleanEnv() })
  if (pack.code !== 0) throw new Error(pack.stderr)
  const app = join(work, 'app')
  mkdirSync(join(app, 'config'), { recursive: true })
  writeFileSync(join(app, 'config/app.ts'), 'export default {}\n')
  const manifest = {
    name: 'app',
    type: 'module',
    dependencies: { helper: 'file:../helper', packed: 'file:../packed-1.0.0.tgz', bare: '../helper', ranged: '^1.0.0' },
    devDependencies: { absolute: `file:${join(work, 'helper')}` },
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2))
  return { work, app }
}

test('kiln build moves relative file: and path specs one folder deeper, so npm install in build/ links the same packages', async (t) => {
  t.timeout(180_000)
  const { work, app } = await appBesidePackages()
  // The app's own lock, as npm install writes it, names the folder and the tarball by their paths from the app.
  const lockless = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  delete lockless.dependencies.bare
  delete lockless.dependencies.ranged
  writeFileSync(join(app, 'package.json'), JSON.stringify(lockless, null, 2))
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--offline'], { cwd: app, env: cleanEnv() })
  t.is(install.code, 0, install.stderr)

  const build = await run(process.execPath, [BIN, 'build'], { cwd: app, env: cleanEnv() })
  t.is(build.code, 0, build.stderr)
  t.regex(build.stdout, /Rewrote 2 relative path dependencies/)
  const built = JSON.parse(readFileSync(join(app, 'build/package.json'), 'utf8'))
  t.deepEqual(built.dependencies, { helper: 'file:../../helper', packed: 'file:../../packed-1.0.0.tgz' })
  t.is(built.devDependencies.absolute, `file:${join(work, 'helper')}`, 'absolute paths stay as they are')

  // The lock moves with it: npm ci in build/ installs from the same folder and tarball, production only.
  const ci = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--offline'], { cwd: join(app, 'build'), env: cleanEnv() })
  t.is(ci.code, 0, ci.stderr)
  t.is(realpathSync(join(app, 'build/node_modules/helper')), realpathSync(join(work, 'helper')), 'the folder dependency links to the real folder')
  t.true(existsSync(join(app, 'build/node_modules/packed/index.js')), 'the tarball is unpacked')
  const said = await run(
    process.execPath,
    ['--input-type=module', '-e', 'const a = await import("helper"); const b = await import("packed"); console.log(a.greeting, "/", b.greeting)'],
    {
      cwd: join(app, 'build'),
      env: cleanEnv(),
    },
  )
  t.is(said.stdout.trim(), 'from a folder / from a tarball')
})

test('bare relative paths and versions in package.json: paths move, versions stay', async (t) => {
  const { app } = await appBesidePackages()
  const build = await run(process.execPath, [BIN, 'build'], { cwd: app, env: cleanEnv() })
  t.is(build.code, 0, build.stderr)
  const built = JSON.parse(readFileSync(join(app, 'build/package.json'), 'utf8'))
  t.deepEqual(built.dependencies, { helper: 'file:../../helper', packed: 'file:../../packed-1.0.0.tgz', bare: '../../helper', ranged: '^1.0.0' })
})
