import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import test from 'ava'
import { GENERATED_TESTS, REPO, generateAll, run, starterCopy, type CliResult } from './generator-fixtures.ts'

// The starter app with every generator run once, and nothing else changed: what a developer gets.
const root = starterCopy()
let results: Array<{ argv: string[] } & CliResult> = []
let startersTests: string[] = []

function testFiles(): string[] {
  const dir = join(root, 'tests')
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map((file) => `tests/${String(file)}`)
        .filter((file) => file.endsWith('.test.ts'))
    : []
}

test.before(async () => {
  startersTests = testFiles()
  results = await generateAll(root)
})

test('every generator exits 0 and names each file it wrote', (t) => {
  for (const { argv, code, stdout, stderr } of results) {
    t.is(code, 0, `${argv.join(' ')}: ${stderr}`)
    const created = [...stdout.matchAll(/^Created (\S+)$/gm)].map((m) => m[1]!)
    t.true(created.length > 0, argv.join(' '))
    for (const file of created) t.true(existsSync(join(root, file)), `${argv.join(' ')} wrote ${file}`)
  }
  t.deepEqual(
    testFiles()
      .filter((file) => !startersTests.includes(file))
      .sort(),
    [...GENERATED_TESTS].sort(),
  )
  t.regex(results.find((r) => r.argv[1] === 'AuditShipment')!.stdout, /No test written: OrderShipped's constructor takes arguments/)
  t.true(existsSync(join(root, 'app/events/user-registered.ts')), 'the missing event is created with its listener')
})

test('the generated files type-check with the repository settings', async (t) => {
  t.timeout(180_000)
  const files = results.flatMap(({ stdout }) => [...stdout.matchAll(/^Created (\S+)$/gm)].map((m) => m[1]!))
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ extends: relative(root, join(REPO, 'tsconfig.json')), include: files, compilerOptions: { noEmit: true } }),
  )
  const tsc = await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--pretty', 'false'], root)
  t.is(tsc.code, 0, tsc.stdout + tsc.stderr)
})

test('every generated test passes as generated, run by ava', async (t) => {
  t.timeout(300_000)
  // ava's project is the repository (the nearest package.json): its files are named from there.
  const config = join(root, 'ava.config.mjs')
  const files = GENERATED_TESTS.map((file) => `${relative(REPO, root).split('\\').join('/')}/${file}`)
  writeFileSync(
    config,
    `export default ${JSON.stringify({ files, extensions: { ts: 'module' }, nodeArguments: ['--conditions=kiln-source', '--import=tsx'], workerThreads: false, timeout: '120s' })}\n`,
  )
  const ava = await run(process.execPath, [join(REPO, 'node_modules/ava/entrypoints/cli.mjs'), '--config', config], REPO)
  const output = ava.stdout + ava.stderr
  t.is(ava.code, 0, output)
  const written = GENERATED_TESTS.reduce((n, file) => n + (readFileSync(join(root, file), 'utf8').match(/^test\(/gm)?.length ?? 0), 0)
  t.true(written >= GENERATED_TESTS.length)
  t.regex(output, new RegExp(`\\b${written} tests passed`), output)
  t.notRegex(output, /failed|skipped|todo/i, output)
})
