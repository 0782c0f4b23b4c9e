import test from 'ava'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { markdownPages } from '../../scripts/docs-typecheck.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
// Every page, those in subfolders (docs/components/) included: `components/testing.md`.
const pages = markdownPages(`${root}docs`)

test('the user docs and the README never speak of "the Python names": Kiln’s names are the only ones a user meets', (t) => {
  for (const file of [...pages.map((name) => `docs/${name}`), 'README.md']) {
    const text = readFileSync(`${root}${file}`, 'utf8')
    t.notRegex(text, /python/i, file)
    t.notRegex(text, /migrating\.md/, `${file} links the removed porting page`)
  }
  t.false(existsSync(`${root}docs/migrating.md`))
})

test('the page of the interface specification’s names says in its first line whom it is for, and no feature page sends users there', (t) => {
  const first = readFileSync(`${root}docs/spec-names.md`, 'utf8').split('\n')[0]!
  t.regex(first, /^For readers of Kiln's interface specification/)
  for (const name of pages) {
    const text = readFileSync(`${root}docs/${name}`, 'utf8')
    t.false(text.includes('](spec-names.md)') || text.includes('](../spec-names.md)'), name)
  }
})
