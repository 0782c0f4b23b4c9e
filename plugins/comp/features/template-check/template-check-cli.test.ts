import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { kiln, kilnBin, starterCopy } from '../../../../tests/core/cli/generators/generator-fixtures.ts'

/** The starter's counter with a misspelt name and a misspelt action. */
function starterWithMistakes(): string {
  const root = starterCopy()
  const file = join(root, 'app/components/counter.ts')
  const source = readFileSync(file, 'utf8')
  const broken = source.replace('data-test="count">{{count}}</p>', 'data-test="count">{{cuont}}</p>').replace('wire:click="increment"', 'wire:click="incremnt"')
  if (broken === source) throw new Error('app-template/app/components/counter.ts changed: update this test')
  writeFileSync(file, broken)
  return root
}

/** The line of `text` in a file, 1-based. */
function lineOf(file: string, text: string): number {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  )
}

test('kiln check (the real bin) passes the starter, with components fresh from make:comp: exit 0', async (t) => {
  const root = starterCopy()
  for (const argv of [
    ['make:comp', 'FreshOne'],
    ['make:comp', 'FreshTwo', '--view'],
  ])
    t.is((await kiln(argv, root)).code, 0)
  const result = await kilnBin(['check'], root)
  t.is(result.code, 0, result.stderr)
  t.regex(result.stdout, /^No mistakes found \(component templates\)\.$/m)
})

test('kiln check (the real bin) lists each mistake with file:line and "did you mean", and exits 1', async (t) => {
  const root = starterWithMistakes()
  const file = join(root, 'app/components/counter.ts')
  const result = await kilnBin(['check'], root)
  t.is(result.code, 1, result.stdout)
  t.is(
    result.stderr,
    [
      `app/components/counter.ts:${lineOf(file, '{{cuont}}')}: Counter's template reads "cuont", which Counter does not have. Did you mean "count"?`,
      `app/components/counter.ts:${lineOf(file, 'wire:click="incremnt"')}: wire:click="incremnt": Counter has no action "incremnt" (a public method the browser may call). Did you mean "increment"?`,
      '2 mistakes found.',
      '',
    ].join('\n'),
  )
})

test('kiln build refuses an app with a template mistake and writes nothing', async (t) => {
  const root = starterWithMistakes()
  const result = await kiln(['build'], root)
  t.is(result.code, 1, result.stdout)
  t.regex(result.stderr, /app\/components\/counter\.ts:\d+: Counter's template reads "cuont", which Counter does not have\. Did you mean "count"\?/)
  t.regex(result.stderr, /kiln build refuses an app with 2 mistakes/)
  t.false(existsSync(join(root, 'build')), 'no build/ folder')
})
