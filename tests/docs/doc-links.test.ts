import test from 'ava'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { anchors, brokenLinks, pagesUnder, slug } from './doc-links.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

test('every relative link and #anchor in docs/ (subfolders included) and the README leads to a page and a heading', (t) => {
  const pages = [join(root, 'README.md'), ...pagesUnder(join(root, 'docs'))]
  t.true(
    pages.some((page) => page.includes(join('docs', 'components', ''))),
    'the components pages are read',
  )
  const broken = brokenLinks(root, pages)
  t.deepEqual(
    broken.map((link) => `${link.where}: ${link.target} (${link.reason})`),
    [],
  )
})

test('the link check fails on a missing page, a missing anchor and a missing anchor of the page itself, and passes good links', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'doc-links-'))
  mkdirSync(join(dir, 'docs', 'guide'), { recursive: true })
  writeFileSync(
    join(dir, 'docs', 'guide', 'a.md'),
    [
      '# Guide',
      '## Set up: `wire:model` and $wire',
      '## Set up: `wire:model` and $wire',
      'Good: [b](../b.md#the-end), [self](#set-up-wiremodel-and-wire-1), [up](../b.md), [web](https://example.com/x.md#nope).',
      'Bad: [gone](../missing.md), [anchor](../b.md#the-start), [self](#nowhere).',
      '```md',
      '[in code](nowhere.md) is not a link',
      '```',
      'Nor is `[in a code span](nowhere.md)`.',
    ].join('\n'),
  )
  writeFileSync(join(dir, 'docs', 'b.md'), '# B\n\n## The end\n')
  const broken = brokenLinks(dir, pagesUnder(join(dir, 'docs')))
  t.deepEqual(
    broken.map((link) => [link.where, link.target]),
    [
      [join('docs', 'guide', 'a.md') + ':5', '../missing.md'],
      [join('docs', 'guide', 'a.md') + ':5', '../b.md#the-start'],
      [join('docs', 'guide', 'a.md') + ':5', '#nowhere'],
    ],
  )
})

test('anchors are GitHub’s: punctuation dropped, spaces as hyphens, repeats numbered', (t) => {
  t.is(slug('Echo listeners: broadcasts into components'), 'echo-listeners-broadcasts-into-components')
  t.is(slug('`$wire` and the global object'), 'wire-and-the-global-object')
  t.is(slug('wire:offline, wire:online'), 'wireoffline-wireonline')
  t.is(slug('Why a .ts file rather than a ⚡ file'), 'why-a-ts-file-rather-than-a--file')
  t.is(slug('Extra view data: with()'), 'extra-view-data-with')
  t.deepEqual([...anchors('# T\n## Setup\n```\n## not a heading\n```\n## Setup\n')], ['t', 'setup', 'setup-1'])
})
