import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..')
const fixtures = join(root, 'plugins/comp/features/forms/typecheck')

/**
 * Fixtures are kept as `.ts.txt` (so the repository's own `tsc --noEmit`
 * does not see the file that must fail) and checked here as `.ts` files at
 * the same place, with the repository's compiler options.
 */
function check(names: string[]): Map<string, Array<{ line: number; code: number; text: string }>> {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (!config) throw new Error('tsconfig.json could not be read.')
  const virtual = new Map(names.map((name) => [join(fixtures, `${name}.ts`), readFileSync(join(fixtures, `${name}.ts.txt`), 'utf8')]))
  const host = ts.createCompilerHost(config.options)
  const { fileExists, readFile } = host
  host.fileExists = (file) => virtual.has(file) || fileExists(file)
  host.readFile = (file) => virtual.get(file) ?? readFile(file)
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: { ...config.options, noEmit: true }, host })
  const found = new Map<string, Array<{ line: number; code: number; text: string }>>()
  for (const [file, text] of virtual) {
    const source = program.getSourceFile(file)
    if (!source) throw new Error(`${file} was not loaded.`)
    const lines = text.split('\n')
    found.set(
      file.slice(fixtures.length + 1),
      ts.getPreEmitDiagnostics(program, source).map((diagnostic) => {
        const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
        return { line, code: diagnostic.code, text: lines[line - 1]!.trim() }
      }),
    )
  }
  return found
}

/** The `// error TSxxxx` markers of a fixture: the line and code each marked line must fail with. */
function expected(name: string): Array<{ line: number; code: number }> {
  return readFileSync(join(fixtures, `${name}.ts.txt`), 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      const match = /\/\/ error TS(\d+)$/.exec(text)
      return match ? [{ line: index + 1, code: Number(match[1]) }] : []
    })
}

test('tsc catches typos in field names used with forms and @validate, and a rule whose output does not fit its field; correct uses compile', (t) => {
  t.timeout(180_000)
  const found = check(['forms-typos', 'forms-valid'])
  t.deepEqual(found.get('forms-valid.ts'), [], 'the correct fixture compiles')
  const marked = expected('forms-typos')
  t.true(marked.length >= 10)
  const actual = found.get('forms-typos.ts')!
  t.deepEqual(
    actual.map(({ line, code }) => ({ line, code })),
    marked,
    actual.map(({ line, code, text }) => `${line} TS${code}: ${text}`).join('\n'),
  )
})
