import { execFile } from 'node:child_process'
import { cpSync } from 'node:fs'
import { relative } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../../../core/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url))
const TEMPLATE = fileURLToPath(new URL('../../../../app-template/', import.meta.url))
const BIN = fileURLToPath(new URL('../../../../bin/kiln.js', import.meta.url))
// Local state of a template that has been run: never copied.
const SKIP = /(^|\/)(storage\/.+|database\/.*\.sqlite.*|\.env)$/

/** A result of running the CLI. */
export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * A copy of the starter app inside the repository (so `kiln-framework` resolves
 * by self-reference), with `files` written over it.
 *
 * @example
 * ```ts
 * const root = starterCopy({ 'routes/api.ts': '...' })
 * ```
 */
export function starterCopy(files: Record<string, string> = {}): string {
  const root = tempApp(files)
  cpSync(TEMPLATE, root, { recursive: true, force: false, filter: (src) => !SKIP.test(relative(TEMPLATE, src).split('\\').join('/')) })
  return root
}

function capture() {
  let text = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  return { stream, text: () => text }
}

/**
 * Runs the CLI in-process in `cwd`, `APP_ENV=test`.
 *
 * @example
 * ```ts
 * const { code, stdout } = await kiln(['make:job', 'ProcessPodcast'], root)
 * ```
 */
export async function kiln(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const stdout = capture()
  const stderr = capture()
  const code = await runCli(argv, { cwd, env: { APP_ENV: 'test', NO_COLOR: '1', ...env }, stdout: stdout.stream, stderr: stderr.stream })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

/**
 * Runs a program as a child process and resolves with its exit code and output.
 *
 * @example
 * ```ts
 * await run(process.execPath, [BIN, 'migrate'], root)
 * ```
 */
export function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, APP_ENV: 'test', NO_COLOR: '1', ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

/**
 * Runs the real `bin/kiln.js` in `cwd` as a child process.
 *
 * @example
 * ```ts
 * const { code } = await kilnBin(['migrate'], root)
 * ```
 */
export function kilnBin(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  return run(process.execPath, [BIN, ...args], cwd, env)
}

/** Every generator, with the options worth covering; run in this order. */
export const GENERATE: string[][] = [
  ['make:controller', 'Post', '--resource'],
  ['make:controller', 'Admin/Dashboard'],
  ['make:model', 'BlogPost', '-m'],
  ['make:factory', 'BlogPost'],
  ['make:seeder', 'BlogPostSeeder'],
  ['make:provider', 'Billing'],
  ['make:migration', 'add_slug_to_blog_posts'],
  ['make:migration', 'backfill_slugs'],
  ['make:middleware', 'EnsureAdmin'],
  ['make:job', 'ProcessPodcast'],
  ['make:event', 'PodcastProcessed'],
  ['make:event', 'InvoicePaid', '--broadcast'],
  ['make:listener', 'NotifySubscribers', '--event=PodcastProcessed'],
  // The starter's OrderShipped takes an order: no test is written for its listener.
  ['make:listener', 'AuditShipment', '--event=OrderShipped'],
  ['make:listener', 'LogEverything'],
  // An event that does not exist yet is created with its listener.
  ['make:listener', 'WelcomeUser', '--event=UserRegistered'],
  ['make:command', 'SendReport'],
  ['make:command', 'PruneDrafts', '--command=posts:prune-drafts', '--skip-test'],
  ['make:test', 'PostApi'],
  ['make:guard', 'ApiKey'],
  ['make:broadcaster', 'Audit'],
]

/** The tests the generators above write, by file. */
export const GENERATED_TESTS = [
  'tests/controllers/post-controller.test.ts',
  'tests/controllers/admin/dashboard-controller.test.ts',
  'tests/models/blog-post.test.ts',
  'tests/middleware/ensure-admin.test.ts',
  'tests/jobs/process-podcast.test.ts',
  'tests/events/invoice-paid.test.ts',
  'tests/listeners/notify-subscribers.test.ts',
  'tests/listeners/welcome-user.test.ts',
  'tests/commands/send-report.test.ts',
  'tests/post-api.test.ts',
  'tests/guards/api-key-guard.test.ts',
  'tests/broadcasters/audit-broadcaster.test.ts',
]

/**
 * Runs every generator of {@link GENERATE} in `root` through the CLI.
 *
 * @example
 * ```ts
 * const results = await generateAll(root)
 * ```
 */
export async function generateAll(root: string): Promise<Array<{ argv: string[] } & CliResult>> {
  const results: Array<{ argv: string[] } & CliResult> = []
  for (const argv of GENERATE) results.push({ argv, ...(await kiln(argv, root)) })
  return results
}
