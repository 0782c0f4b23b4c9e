import test from 'ava'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))

/** `npm run bench -- <args>`, as the package script runs it, without npm's own output. */
function bench(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--conditions=kiln-source', '--import=tsx', 'bench/run.ts', ...args], { cwd: root })
}

test('a misspelt bench name is refused with exit code 1 and the list of names, before anything runs', async (t) => {
  const error = await t.throwsAsync<Error & { code: number; stdout: string; stderr: string }>(bench('kernl'))
  t.is(error.code, 1)
  t.regex(error.stderr, /Unknown bench: kernl\./)
  t.regex(error.stderr, /Names: kernel, tok, comp/)
  t.is(error.stdout, '')
})

test('--help lists the benches and runs none', async (t) => {
  const { stdout } = await bench('--help')
  t.regex(stdout, /^Usage: npm run bench/)
  t.regex(stdout, /peers runs only when named/)
})
