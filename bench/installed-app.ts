/**
 * P6 for an app as it runs in production: Kiln packed (`npm pack`), a fresh
 * app from `kiln new` installed on the tarball, compiled with `kiln build`,
 * shipped apart and installed with `--omit=dev`, so the server runs on plain
 * node with no tsx. Prints the production install's size and package count
 * and, as `start` does, the import of `kiln-framework`, the boot and the
 * time from `kiln serve` to its first 200 (three starts, medians).
 */
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BIN, cleanEnv, run } from '../tests/cli-new/run.ts'
import { freePort } from '../tests/drivers/kv/redis-server.ts'
import { importTime, median, ROUNDS, startLine, untilFirst200, type Timing } from './start-time.ts'

const REPO = fileURLToPath(new URL('../', import.meta.url))

async function step(name: string, result: Promise<{ code: number; stdout: string; stderr: string }>): Promise<string> {
  const { code, stdout, stderr } = await result
  if (code !== 0) throw new Error(`P6 installed: ${name} failed: ${stderr.slice(0, 500)}`)
  return stdout
}

export async function installedApp(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'kiln-bench-installed-'))
  try {
    const packed = await step('npm pack', run('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO, env: cleanEnv() }))
    const [{ filename }] = JSON.parse(packed.slice(packed.indexOf('['))) as [{ filename: string }]
    await step('kiln new', run(process.execPath, [BIN, 'new', 'shop', '--no-install'], { cwd: work }))
    const app = join(work, 'shop')
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
    pkg.dependencies['kiln-framework'] = `file:${join(work, filename)}`
    writeFileSync(join(app, 'package.json'), JSON.stringify(pkg, null, 2))
    await step('npm install', run('npm', ['install', '--no-fund', '--no-audit'], { cwd: app, env: cleanEnv() }))
    const env = cleanEnv({ APP_ENV: 'production' })
    delete env.NODE_OPTIONS
    await step('kiln build', run(process.execPath, [join(app, 'node_modules/kiln-framework/bin/kiln.js'), 'build'], { cwd: app, env }))
    const build = join(work, 'release')
    renameSync(join(app, 'build'), build)
    await step('npm install --omit=dev', run('npm', ['install', '--omit=dev', '--no-fund', '--no-audit'], { cwd: build, env: cleanEnv() }))
    copyFileSync(join(app, '.env'), join(build, '.env'))
    const kiln = join(build, 'node_modules/kiln-framework/bin/kiln.js')
    await step('kiln migrate', run(process.execPath, [kiln, 'migrate'], { cwd: build, env }))
    const size = execFileSync('du', ['-sm', join(build, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]
    const count =
      execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: build, encoding: 'utf8', env: cleanEnv() }).trim().split('\n').length - 1
    const imports: Timing[] = []
    const serves: Timing[] = []
    for (let round = 0; round < ROUNDS; round++) {
      imports.push(await importTime([], build, env))
      serves.push(await untilFirst200([kiln, 'serve'], build, await freePort(), env))
    }
    const ms = median(serves.map((t) => t.wall))
    console.log(
      `P6 installed app (npm pack, kiln build, --omit=dev, plain node): production node_modules ${size} MB, ${count} packages; ${startLine(imports, serves)}; goal ≤ 400 ms: ${ms <= 400 ? 'met' : 'NOT met'}`,
    )
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
