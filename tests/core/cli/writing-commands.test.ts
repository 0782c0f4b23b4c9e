import { readFileSync } from 'node:fs'
import test from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, cli, lines } from './cli-harness.ts'

// The command docs/cli.md shows, taken from the page itself so the page cannot drift from what runs.
const page = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8')
const start = page.indexOf('// app/commands/send-report.ts')
const example = page.slice(start, page.indexOf('```', start))

const app = () =>
  tempApp({
    'config/app.ts': `import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n`,
    'app/commands/send-report.ts': example,
  })

test("the docs' own command: parsed options, its help page, and CommandError as one line", async (t) => {
  t.true(start > 0)
  const root = app()
  const ran = await cli(['reports:send', '2026-W47', '--dry', '-l', '5'], root)
  t.is(ran.code, 0, ran.stderr)
  t.is(ran.stdout, 'Would send 2026-W47 to at most 5 people.\n')
  t.is((await cli(['reports:send', '2026-W47'], root)).stdout, 'Sent 2026-W47.\n')
  const refused = await cli(['reports:send', '47'], root)
  t.is(refused.code, 1)
  t.deepEqual(lines(refused.stderr), ['The week looks like 2026-W47.'])
  const help = await cli(['help', 'reports:send'], root)
  t.regex(help.stdout, /Usage:\n {2}kiln reports:send <week> \[options\]/)
  t.regex(help.stdout, /-l, --limit=<number> +Most recipients \(default: 100\)/)
  t.regex(help.stdout, /Examples:\n {2}kiln reports:send 2026-W47\n {2}kiln reports:send 2026-W47 --dry --limit=5/)
  t.regex((await cli(['--help'], root)).stdout, /^ reports\n {2}reports:send +Email the weekly report$/m)
  t.regex((await cli(['reports:send', '2026-W47', '--limit=many'], root)).stderr, /^--limit must be a number, got "many"\./)
})

test("the real bin runs the docs' command", async (t) => {
  const ran = await bin(['reports:send', '2026-W47', '--dry', '--limit', '5'], app())
  t.is(ran.code, 0, ran.stderr)
  t.is(ran.stdout, 'Would send 2026-W47 to at most 5 people.\n')
})
