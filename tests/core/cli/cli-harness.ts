import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../../core/index.ts'

/** The real `kiln` executable. */
export const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))
/** The framework checkout (no config/ of its own). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
/** The framework's version, as its package.json says. */
export const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version
/** The starter app's config/app.ts: every bundled plugin, so every plugin command. */
export const TEMPLATE_APP_CONFIG = readFileSync(new URL('../../../app-template/config/app.ts', import.meta.url), 'utf8')

/** An empty folder in the system's temp directory, outside the framework checkout. */
export function emptyDir(): string {
  return mkdtempSync(join(tmpdir(), 'kiln-empty-'))
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** A stream that keeps what is written; `isTTY` makes it look like a terminal. */
export function capture(options: { isTTY?: boolean } = {}) {
  let text = ''
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk)
      done()
    },
  })
  if (options.isTTY) Object.assign(stream, { isTTY: true })
  return { stream, text: () => text }
}

/** `kiln ...argv` in-process, in `cwd`, with its own environment (APP_ENV=test unless given). */
export async function cli(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = { APP_ENV: 'test' },
  options: { tty?: boolean } = {},
): Promise<CliResult> {
  const stdout = capture({ isTTY: options.tty })
  const stderr = capture({ isTTY: options.tty })
  const code = await runCli(argv, { cwd, env, stdout: stdout.stream, stderr: stderr.stream })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

/**
 * `kiln ...argv` as a child process through bin/kiln.js, output piped. The
 * parent's colour switches are left out so that each test sets its own.
 */
export function bin(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const base = { ...process.env }
  delete base.NO_COLOR
  delete base.FORCE_COLOR
  delete base.KILN_ROOT
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...argv], { cwd, env: { ...base, APP_ENV: 'test', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

/** The lines of an output, without the trailing empty one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === ''))
}

/** Escape codes (colours) anywhere in the text. */
export const ANSI = /\u001b\[/

/** A Node stack frame line. */
export const STACK_FRAME = /^\s+at .+/m

/**
 * The starter's config/app.ts with `code` declared before it and `plugin`
 * first in its plugins; throws when the starter's file no longer has the
 * lines it edits (a silent miss once left the plugin undefined).
 *
 * @example
 * ```ts
 * tempApp({ 'config/app.ts': starterAppConfigWith("const extra = definePlugin({ name: 'extra' })", 'extra') })
 * ```
 */
export function starterAppConfigWith(code: string, plugin: string): string {
  const imports = "import { defineAppConfig } from 'kiln-framework'\n"
  if (!TEMPLATE_APP_CONFIG.includes(imports) || !TEMPLATE_APP_CONFIG.includes('plugins: ['))
    throw new Error('app-template/config/app.ts changed: update starterAppConfigWith()')
  return TEMPLATE_APP_CONFIG.replace(imports, `import { defineAppConfig, definePlugin, defineCommand } from 'kiln-framework'\n${code}\n`).replace(
    'plugins: [',
    `plugins: [${plugin}, `,
  )
}
