/**
 * Kiln as an application installs it in production, for the benches that
 * time it so: the package packed (`npm pack`), an app from `kiln new`
 * installed on that tarball, compiled by `kiln build`, and the build
 * installed on its own with `--omit=dev`, so it runs on plain node.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BIN, cleanEnv, run } from '../tests/cli-new/run.ts'

const REPO = fileURLToPath(new URL('../', import.meta.url))

/** A built app: its folder and the `kiln` binary installed there. */
export interface BuiltApp {
  root: string
  kiln: string
}

/** Runs one setup step and returns its stdout; a failed step throws with what it printed on stderr. */
export async function step(name: string, result: Promise<{ code: number; stdout: string; stderr: string }>): Promise<string> {
  const { code, stdout, stderr } = await result
  if (code !== 0) throw new Error(`${name} failed: ${stderr.slice(0, 800)}`)
  return stdout
}

/**
 * `npm pack` of the clone into `work`; resolves to the tarball's path.
 *
 * @example
 * ```ts
 * const tarball = await packKiln(work)
 * ```
 */
export async function packKiln(work: string): Promise<string> {
  const packed = await step('npm pack', run('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO, env: cleanEnv() }))
  const [{ filename }] = JSON.parse(packed.slice(packed.indexOf('['))) as [{ filename: string }]
  return join(work, filename)
}

/**
 * A production build of an app made by `kiln new <name>` in `work` on the
 * tarball: `files` (relative path → text), when given, replace the
 * starter's `app/`, `config/`, `routes/`, `resources/`, `database/` and
 * `tests/` folders and its `.env`. The build lands in `work/release`, with
 * the app's `.env` beside it.
 *
 * @example
 * ```ts
 * const { root, kiln } = await buildApp(work, await packKiln(work), 'shop')
 * ```
 */
export async function buildApp(work: string, tarball: string, name: string, files?: Record<string, string>): Promise<BuiltApp> {
  await step('kiln new', run(process.execPath, [BIN, 'new', name, '--no-install', '--no-git'], { cwd: work }))
  const app = join(work, name)
  if (files) {
    for (const folder of ['app', 'config', 'routes', 'resources', 'database', 'tests']) rmSync(join(app, folder), { recursive: true, force: true })
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(app, path)), { recursive: true })
      writeFileSync(join(app, path), text)
    }
  }
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  pkg.dependencies['kiln-framework'] = `file:${tarball}`
  writeFileSync(join(app, 'package.json'), JSON.stringify(pkg, null, 2))
  await step('npm install', run('npm', ['install', '--no-fund', '--no-audit'], { cwd: app, env: cleanEnv() }))
  const env = productionEnv()
  await step('kiln build', run(process.execPath, [join(app, 'node_modules/kiln-framework/bin/kiln.js'), 'build'], { cwd: app, env }))
  const build = join(work, 'release')
  renameSync(join(app, 'build'), build)
  await step('npm install --omit=dev', run('npm', ['install', '--omit=dev', '--no-fund', '--no-audit'], { cwd: build, env: cleanEnv() }))
  if (existsSync(join(app, '.env'))) copyFileSync(join(app, '.env'), join(build, '.env'))
  return { root: build, kiln: join(build, 'node_modules/kiln-framework/bin/kiln.js') }
}

/**
 * The environment a production process of a built app gets: `APP_ENV=production`, no inherited `NODE_OPTIONS` (no tsx).
 *
 * @example
 * ```ts
 * await run(process.execPath, [kiln, 'migrate', '--force'], { cwd: root, env: productionEnv() })
 * ```
 */
export function productionEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv({ APP_ENV: 'production', APP_URL: 'http://127.0.0.1:3000', ...extra })
  delete env.NODE_OPTIONS
  return env
}
