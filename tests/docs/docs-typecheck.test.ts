import test from 'ava'
import { checkDocs, tsBlocks } from '../../scripts/docs-typecheck.ts'

test('every TypeScript example in docs/ compiles against the framework', async (t) => {
  t.timeout(180_000)
  const errors = await checkDocs()
  t.deepEqual(errors, [], errors.join('\n'))
})

test('the docs check finds a broken example and names its page and line', async (t) => {
  t.timeout(180_000)
  const { mkdtempSync, writeFileSync } = await import('node:fs')
  const { join } = await import('node:path')
  const { tmpdir } = await import('node:os')
  const dir = mkdtempSync(join(tmpdir(), 'docs-'))
  writeFileSync(join(dir, 'broken.md'), "# Broken\n\nText.\n\n```ts\nimport { createApp } from 'kiln-framework'\nconst port: number = 'three'\n```\n")
  const errors = await checkDocs(dir)
  t.is(errors.length, 1)
  t.regex(errors[0]!, /^docs\/broken\.md:7: error TS2322/)
  t.deepEqual(
    tsBlocks('x.md', 'a\n```ts\nb\n```\n```sh\nc\n```').map((block) => block.line),
    [3],
  )
})

test('the docs check reads the pages of subfolders and names them by their path', async (t) => {
  t.timeout(180_000)
  const { mkdirSync, mkdtempSync, writeFileSync } = await import('node:fs')
  const { join } = await import('node:path')
  const { tmpdir } = await import('node:os')
  const { markdownPages } = await import('../../scripts/docs-typecheck.ts')
  const dir = mkdtempSync(join(tmpdir(), 'docs-'))
  mkdirSync(join(dir, 'guide', 'deeper'), { recursive: true })
  writeFileSync(join(dir, 'top.md'), '# Top\n\n```ts\nconst fine: number = 1\n```\n')
  writeFileSync(join(dir, 'guide', 'deeper', 'nested.md'), "# Nested\n\n```ts\nconst port: number = 'three'\n```\n")
  t.deepEqual(markdownPages(dir), ['guide/deeper/nested.md', 'top.md'])
  const errors = await checkDocs(dir)
  t.is(errors.length, 1)
  t.regex(errors[0]!, /^docs\/guide\/deeper\/nested\.md:4: error TS2322/)
})
