/**
 * P6 for an app as it runs in production: Kiln packed (`npm pack`), a fresh
 * app from `kiln new` installed on the tarball, compiled with `kiln build`,
 * shipped apart and installed with `--omit=dev`, so the server runs on plain
 * node with no tsx. Prints the production install's size and package count
 * and, as `start` does, the import of `kiln-framework`, the boot and the
 * time from `kiln serve` to its first 200 (three starts, medians).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../tests/fixtures/redis-server.ts'
import { buildApp, packKiln, productionEnv, step } from './packed-app.ts'
import { cleanEnv, run } from '../tests/cli-new/run.ts'
import { importTime, median, ROUNDS, startLine, untilFirst200, type Timing } from './start-time.ts'

export async function installedApp(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'kiln-bench-installed-'))
  try {
    const { root: build, kiln } = await buildApp(work, await packKiln(work), 'shop')
    const env = productionEnv()
    // --force: a production app refuses migrate without it (the bench's app is production, as a deploy is).
    await step('kiln migrate', run(process.execPath, [kiln, 'migrate', '--force'], { cwd: build, env }))
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
