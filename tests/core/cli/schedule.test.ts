import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { BIN, bin, lines } from './cli-harness.ts'

const files = {
  'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
  '.env': `APP_KEY=${generateAppKey()}\n`,
  'app/commands/note.ts': `import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineCommand } from 'kiln-framework'
export const noteCommand = defineCommand({
  name: 'note:write',
  description: 'Append a word to notes.txt',
  args: [{ name: 'word', description: 'The word', required: true }],
  run({ app, args }) { appendFileSync(join(app.root, 'notes.txt'), args[0] + '\\n') },
})
`,
  'routes/console.ts': `import { appendFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { defineSchedule } from 'kiln-framework'
import { setTimeout as sleep } from 'node:timers/promises'

const root = join(import.meta.dirname, '..')
const note = (word: string) => appendFileSync(join(root, 'notes.txt'), word + '\\n')

export default defineSchedule((Schedule) => {
  Schedule.command('note:write', ['every']).everyMinute()
  Schedule.call(() => note('lunch')).dailyAt('13:00').description('Lunch bell')
  Schedule.command('note:write', ['office']).cron('*/15 9-17 * * 1-5')
  Schedule.call(() => { throw new Error('boom') }).cron('0 3 * * *').description('Breaks')
  Schedule.call(async () => {
    note('slow-start')
    while (!existsSync(join(root, 'release'))) await sleep(20)
    note('slow-end')
  }).cron('30 4 * * *').withoutOverlapping().description('Slow import')
})
`,
}

const UTC = { TZ: 'UTC' }

function notes(root: string): string[] {
  const file = join(root, 'notes.txt')
  if (!existsSync(file)) return []
  const words = lines(readFileSync(file, 'utf8'))
  writeFileSync(file, '')
  return words.sort()
}

test('schedule:run runs the tasks due at the given minute once, commands and functions, and a failing task does not stop the others', async (t) => {
  const root = tempApp(files)
  // Friday 27 November 2026, 13:00: every minute, the lunch bell, and the weekday office-hours cron.
  const friday = await bin(['schedule:run', '--time=2026-11-27T13:00:00Z'], root, UTC)
  t.is(friday.code, 0, friday.stderr)
  t.deepEqual(notes(root), ['every', 'lunch', 'office'])
  t.regex(friday.stdout, /^Ran: kiln note:write every$/m)
  t.regex(friday.stdout, /^Ran: Lunch bell$/m)
  // Saturday: no office hours. 13:07: only every minute.
  t.is((await bin(['schedule:run', '--time=2026-11-28T13:00:00Z'], root, UTC)).code, 0)
  t.deepEqual(notes(root), ['every', 'lunch'])
  t.is((await bin(['schedule:run', '--time=2026-11-27T13:07:00Z'], root, UTC)).code, 0)
  t.deepEqual(notes(root), ['every'])
  // 03:00: the failing task is reported, exit 1, and every minute's task still ran.
  const failed = await bin(['schedule:run', '--time=2026-11-27T03:00:00Z'], root, UTC)
  t.is(failed.code, 1)
  t.regex(failed.stderr, /^Failed: Breaks: boom$/m)
  t.deepEqual(notes(root), ['every'])
  const bad = await bin(['schedule:run', '--time=yesterday'], root, UTC)
  t.is(bad.code, 1)
  t.regex(bad.stderr, /--time must be a date and time/)
})

test('schedule:list shows each task, its cron expression and its next run', async (t) => {
  const root = tempApp(files)
  const list = await bin(['schedule:list', '--time=2026-11-27T13:01:00Z'], root, UTC)
  t.is(list.code, 0, list.stderr)
  t.regex(list.stdout, /^CRON\s+TASK\s+NEXT RUN\s+ZONE\s+FLAGS$/m)
  t.regex(list.stdout, /^\* \* \* \* \*\s+kiln note:write every\s+2026-11-27T13:02:00\.000Z\s+local$/m)
  t.regex(list.stdout, /^0 13 \* \* \*\s+Lunch bell\s+2026-11-28T13:00:00\.000Z/m)
  t.regex(list.stdout, /^\*\/15 9-17 \* \* 1-5\s+kiln note:write office\s+2026-11-27T13:15:00\.000Z/m)
  t.regex(list.stdout, /^0 3 \* \* \*\s+Breaks\s+2026-11-28T03:00:00\.000Z\s+local$/m)
  t.regex(list.stdout, /^30 4 \* \* \*\s+Slow import\s+2026-11-28T04:30:00\.000Z\s+local\s+without overlapping$/m)
  const empty = tempApp({ 'config/app.ts': files['config/app.ts'], '.env': files['.env'] })
  t.regex((await bin(['schedule:list'], empty)).stdout, /^No scheduled tasks: declare them in routes\/console\.ts/)
})

test('withoutOverlapping: a second schedule:run skips the task while the first still runs it, then it runs again', async (t) => {
  const root = tempApp(files)
  const first = spawn(process.execPath, [BIN, 'schedule:run', '--time=2026-11-27T04:30:00Z'], {
    cwd: root,
    env: { ...process.env, APP_ENV: 'test', ...UTC },
  })
  let out = ''
  first.stdout.on('data', (chunk) => (out += String(chunk)))
  const exited = new Promise<number>((resolve) => first.on('exit', (code) => resolve(code ?? 1)))
  while (!readFileSync(join(root, 'notes.txt'), { flag: 'a+' }).toString().includes('slow-start')) await new Promise((r) => setTimeout(r, 20))
  const second = await bin(['schedule:run', '--time=2026-11-27T04:30:00Z'], root, UTC)
  t.is(second.code, 0, second.stderr)
  t.regex(second.stdout, /^Skipped: Slow import \(its previous run has not finished\)$/m)
  writeFileSync(join(root, 'release'), '')
  t.is(await exited, 0)
  t.regex(out, /^Ran: Slow import$/m)
  t.deepEqual(notes(root), ['every', 'every', 'slow-end', 'slow-start'])
  // The lock went with the run.
  t.regex((await bin(['schedule:run', '--time=2026-11-27T04:30:00Z'], root, UTC)).stdout, /^Ran: Slow import$/m)
})

test('schedule:work stays in the foreground with the schedule loaded, and stops on SIGTERM with exit 0', async (t) => {
  const root = tempApp(files)
  const child = spawn(process.execPath, [BIN, 'schedule:work'], { cwd: root, env: { ...process.env, APP_ENV: 'test', ...UTC } })
  let out = ''
  const started = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk) => {
      out += String(chunk)
      if (out.includes('Press Ctrl+C to stop.')) resolve()
    }),
  )
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  await started
  t.regex(out, /^Running the schedule \(5 tasks\) every minute\. Press Ctrl\+C to stop\.$/m)
  child.kill('SIGTERM')
  t.is(await exited, 0)
})
