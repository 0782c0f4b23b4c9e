/**
 * Type-checks every ```ts block in the pages of `docs/` and its subfolders, as a reader would paste it
 * into an app: each block is its own module, compiled with the repository's
 * tsconfig, `kiln-framework` resolving to this checkout. Errors point at the
 * page and line.
 *
 * Run it with `npm run docs:check`; the test suite runs it too.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** One ```ts block: where it is in the docs and its text. */
export interface DocBlock {
  page: string
  /** The line of the block's first code line, 1-based. */
  line: number
  code: string
}

/**
 * The ```ts blocks of a markdown text.
 *
 * @example
 * ```ts
 * tsBlocks('docs/http.md', '# Title\n```ts\nconst a = 1\n```\n') // [{ page: 'docs/http.md', line: 3, code: 'const a = 1' }]
 * ```
 */
export function tsBlocks(page: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue
    const start = i + 1
    let end = start
    while (end < lines.length && !lines[end]!.startsWith('```')) end++
    blocks.push({ page, line: start + 1, code: lines.slice(start, end).join('\n') })
    i = end
  }
  return blocks
}

/**
 * The markdown pages of a folder and its subfolders, as paths relative to
 * it with `/` between folders, sorted.
 *
 * @example
 * ```ts
 * markdownPages('docs') // ['auth.md', ..., 'components/actions.md', ...]
 * ```
 */
export function markdownPages(dir: string, folder = ''): string[] {
  return readdirSync(join(dir, folder), { withFileTypes: true })
    .flatMap((entry) => {
      const path = folder ? `${folder}/${entry.name}` : entry.name
      return entry.isDirectory() ? markdownPages(dir, path) : entry.name.endsWith('.md') ? [path] : []
    })
    .sort()
}

/**
 * Type-checks the blocks of every page in `docs/` and its subfolders, and
 * resolves to the errors, each as `docs/page.md:line: message` (or
 * `docs/folder/page.md:line: message`; empty when all compile).
 *
 * @example
 * ```ts
 * const errors = await checkDocs()
 * if (errors.length) console.error(errors.join('\n'))
 * ```
 */
export async function checkDocs(docsDir = join(ROOT, 'docs')): Promise<string[]> {
  const pages = markdownPages(docsDir)
  const blocks = pages.flatMap((name) => tsBlocks(`docs/${name}`, readFileSync(join(docsDir, name), 'utf8')))
  // Inside the repository, so that `kiln-framework` resolves to this checkout by self-reference.
  mkdirSync(join(ROOT, 'tmp'), { recursive: true })
  const dir = mkdtempSync(join(ROOT, 'tmp', 'docs-check-'))
  try {
    const files = new Map<string, DocBlock>()
    blocks.forEach((block, index) => {
      const file = `${basename(block.page, '.md')}-${index}.ts`
      files.set(file, block)
      // `export {}` makes each block a module of its own: two pages may both declare `app`.
      writeFileSync(join(dir, file), `${block.code}\nexport {}\n`)
    })
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['./*.ts'], compilerOptions: { noEmit: true } }))
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const output = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    })
      .then(() => '')
      .catch((error: { stdout?: string; message: string }) => error.stdout || error.message)
    const errors: string[] = []
    for (const line of output.split('\n')) {
      const match = /([\w.-]+\.ts)\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(line)
      const block = match && files.get(match[1]!)
      if (block) errors.push(`${block.page}:${block.line + Number(match[2]) - 1}: ${match[4]}`)
      else if (line.trim()) errors.push(line)
    }
    return errors
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const errors = await checkDocs()
  if (errors.length > 0) {
    console.error(errors.join('\n'))
    console.error(`\n${errors.length} type error(s) in the docs' TypeScript examples.`)
    process.exit(1)
  }
  console.log('Every TypeScript example in docs/ compiles.')
}
