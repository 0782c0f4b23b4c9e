import { CommandError, defineCommand } from '../cli/define-command.ts'
import { waitForShutdownSignal } from '../cli/shutdown-signal.ts'
import type { ScheduledTask } from './schedule.ts'
import type { Application } from '../application/application.ts'
import { KilnError } from '../support/errors.ts'
import { loadSchedule, nextRun, runDueTasks, type ScheduleIo, type TaskOutcome } from './schedule-runner.ts'
import { assertOneServerStore } from './task-locks.ts'

const timeFlag = {
  time: { type: 'string' as const, description: 'Act as if it were this time (ISO 8601, e.g. 2026-11-27T13:00), for catching up or trying the schedule' },
}

function timeOf(flag: unknown): Date {
  if (flag === undefined || flag === '') return new Date()
  const at = new Date(String(flag))
  if (Number.isNaN(at.getTime())) throw new CommandError(`--time must be a date and time such as 2026-11-27T13:00, got "${String(flag)}".`)
  return at
}

/**
 * The schedule, refused in production (exit 1, no task run) when an `onOneServer()` task has no shared cache store
 * to lock in; elsewhere the tasks run once per machine, with a warning.
 */
async function checkedSchedule(app: Application, warn: (message: string) => void) {
  const schedule = await loadSchedule(app)
  try {
    const warning = assertOneServerStore(app, schedule)
    if (warning) warn(warning)
  } catch (error) {
    if (error instanceof KilnError) throw new CommandError(error.message)
    throw error
  }
  return schedule
}

const SKIPPED = { overlapping: 'its previous run has not finished', 'other-server': 'another server runs it this minute' }

function report(outcomes: TaskOutcome[], io: ScheduleIo): boolean {
  for (const { task, status, reason, error } of outcomes) {
    if (status === 'ran') io.info(`Ran: ${task.label}`)
    else if (status === 'skipped') io.info(`Skipped: ${task.label} (${SKIPPED[reason ?? 'overlapping']})`)
    else io.error(`Failed: ${task.label}: ${(error as Error)?.message ?? String(error)}`)
  }
  return outcomes.every((o) => o.status !== 'failed')
}

/** `kiln schedule:run`: runs the tasks due this minute, once; system cron calls it every minute. */
export const scheduleRunCommand = defineCommand({
  name: 'schedule:run',
  description: 'Run the scheduled tasks that are due now (call it every minute from cron)',
  flags: timeFlag,
  examples: ['kiln schedule:run', 'kiln schedule:run --time=2026-11-27T13:00', '* * * * * cd /srv/app && npx kiln schedule:run'],
  async run({ app, flags, info, warn, error, table }) {
    const io = { info, warn, error, table }
    const at = timeOf(flags.time)
    const outcomes = await runDueTasks(app, await checkedSchedule(app, warn), at, io)
    if (outcomes.length === 0) info('No scheduled tasks are due.')
    return report(outcomes, io) ? 0 : 1
  },
})

/** `kiln schedule:work`: in the foreground, runs the due tasks at the start of every minute until stopped. */
export const scheduleWorkCommand = defineCommand({
  name: 'schedule:work',
  description: 'Run the schedule in the foreground, every minute, until stopped',
  longRunning: true,
  examples: ['kiln schedule:work'],
  async run({ app, info, warn, error, table }) {
    const io = { info, warn, error, table }
    const schedule = await checkedSchedule(app, warn)
    const running = new Set<ScheduledTask>()
    let timer: NodeJS.Timeout | undefined
    const tick = () => {
      const now = new Date()
      // The next whole minute; each tick runs what is due in its own minute, without waiting for slow tasks.
      timer = setTimeout(tick, 60_000 - (now.getTime() % 60_000))
      void runDueTasks(app, schedule, now, io, running).then((outcomes) => report(outcomes, io))
    }
    // Listening before the line that says Ctrl+C works: a signal sent on reading it must find the handler.
    const stopped = waitForShutdownSignal()
    info(`Running the schedule (${schedule.tasks.length} task${schedule.tasks.length === 1 ? '' : 's'}) every minute. Press Ctrl+C to stop.`)
    const now = Date.now()
    timer = setTimeout(tick, 60_000 - (now % 60_000))
    await stopped
    clearTimeout(timer)
    await app.close()
    return 0
  },
})

/** `kiln schedule:list`: every task, its expression, its next run and its flags (one server, without overlapping). */
export const scheduleListCommand = defineCommand({
  name: 'schedule:list',
  description: 'List the scheduled tasks and when each runs next',
  flags: timeFlag,
  examples: ['kiln schedule:list'],
  async run({ app, flags, info, warn, table }) {
    const at = timeOf(flags.time)
    const schedule = await loadSchedule(app)
    if (schedule.tasks.length === 0) return info('No scheduled tasks: declare them in routes/console.ts with defineSchedule().')
    table(
      schedule.tasks.map((task) => ({
        cron: task.expression,
        task: task.label,
        'next run': nextRun(task, at)?.toISOString() ?? 'never',
        zone: task.zone ?? 'local',
        flags: [task.oneServer && 'one server', task.overlapMinutes !== undefined && 'without overlapping'].filter(Boolean).join(', '),
      })),
    )
    // Listed all the same: the list is how one finds the task to change.
    try {
      const warning = assertOneServerStore(app, schedule)
      if (warning) warn(warning)
    } catch (error) {
      if (!(error instanceof KilnError)) throw error
      warn(error.message)
    }
  },
})
