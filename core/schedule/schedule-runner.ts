import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Cron } from 'croner'
import type { Application } from '../application/application.ts'
import { runWithApp } from '../application/current-app.ts'
import { runDefinition } from '../cli/command-input.ts'
import { CommandError, type CommandContext } from '../cli/define-command.ts'
import { Schedule, type ScheduledTask, type ScheduleDefinition } from './schedule.ts'
import { lockTask, taskKeys, type SkipReason } from './task-locks.ts'

/**
 * The app's schedule from `routes/console.ts` (or `.js` in a build): its
 * default export, a `defineSchedule(...)` function. No file, no tasks.
 *
 * @example
 * ```ts
 * const schedule = await loadSchedule(app)
 * schedule.tasks.length
 * ```
 */
export async function loadSchedule(app: Application): Promise<Schedule> {
  const schedule = new Schedule()
  const file = ['ts', 'js', 'mjs'].map((ext) => join(app.root, `routes/console.${ext}`)).find((path) => existsSync(path))
  if (!file) return schedule
  const define = ((await import(pathToFileURL(file).href)) as { default?: ScheduleDefinition }).default
  if (typeof define !== 'function') throw new CommandError('routes/console.ts must export default defineSchedule((Schedule) => { ... }).')
  await runWithApp(app, () => define(schedule))
  return schedule
}

function cronOf(task: ScheduledTask): Cron {
  try {
    return new Cron(task.expression, { paused: true, timezone: task.zone })
  } catch (error) {
    throw new CommandError(`The schedule's task "${task.label}" has an invalid cron expression "${task.expression}": ${(error as Error).message}`)
  }
}

/** The start of the minute `at` falls in: a task is due when its expression matches it. */
function minuteOf(at: Date): Date {
  const minute = new Date(at)
  minute.setSeconds(0, 0)
  return minute
}

/** Whether `task` is due in the minute of `at`. @example `isDue(task, new Date('2026-11-27T13:00:00'))` */
export function isDue(task: ScheduledTask, at: Date): boolean {
  return cronOf(task).match(minuteOf(at))
}

/** The next time `task` runs after `at`. @example `nextRun(task, new Date())` */
export function nextRun(task: ScheduledTask, at: Date): Date | null {
  return cronOf(task).nextRun(at)
}

/** Where output of scheduled commands goes, and how the runner reports. */
export type ScheduleIo = Pick<CommandContext, 'info' | 'warn' | 'error' | 'table'>

/** The outcome of one task in one run. */
export interface TaskOutcome {
  task: ScheduledTask
  status: 'ran' | 'failed' | 'skipped'
  /** Why it was skipped: its previous run still runs, or another server runs it this minute. */
  reason?: SkipReason
  error?: unknown
}

/**
 * Runs the tasks due in the minute of `at`, one after the other, each inside
 * the app; a failing task is reported and does not stop the others. A task
 * whose lock another run holds (`withoutOverlapping`, `onOneServer`) is
 * skipped; a lock that cannot be taken (its store is down) fails the task.
 *
 * @example
 * ```ts
 * const outcomes = await runDueTasks(app, schedule, new Date(), io)
 * ```
 */
export async function runDueTasks(app: Application, schedule: Schedule, at: Date, io: ScheduleIo, running = new Set<ScheduledTask>()): Promise<TaskOutcome[]> {
  const outcomes: TaskOutcome[] = []
  const keys = taskKeys(schedule)
  for (const task of schedule.tasks.filter((t) => isDue(t, at))) {
    let release: () => Promise<void>
    try {
      const taken = await lockTask(app, task, keys.get(task)!, at, running)
      if (typeof taken === 'string') {
        outcomes.push({ task, status: 'skipped', reason: taken })
        continue
      }
      release = taken
    } catch (error) {
      outcomes.push({ task, status: 'failed', error })
      continue
    }
    try {
      await runTask(app, task, io)
      outcomes.push({ task, status: 'ran' })
    } catch (error) {
      outcomes.push({ task, status: 'failed', error })
    } finally {
      await release()
    }
  }
  return outcomes
}

async function runTask(app: Application, task: ScheduledTask, io: ScheduleIo): Promise<void> {
  const action = task.action
  if (action.kind === 'call') return void (await runWithApp(app, async () => action.fn()))
  await app.commands.load(action.name)
  const command = app.commands.get(action.name)
  if (!command) throw new CommandError(`The schedule names a command "${action.name}" that the app does not have.`)
  const code = await runDefinition(command, action.args, async (input) => {
    const ctx: CommandContext = { app, root: app.root, cwd: app.root, args: input.args, flags: input.flags, ...io }
    const result = await runWithApp(app, async () => command.run(ctx))
    return typeof result === 'number' ? result : 0
  })
  if (code !== 0) throw new CommandError(`exited with ${code}`)
}
