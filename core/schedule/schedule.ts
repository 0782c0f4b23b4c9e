/** What a scheduled task runs: a `kiln` command with its arguments, or a function. */
export type ScheduledAction = { kind: 'command'; name: string; args: string[] } | { kind: 'call'; fn: () => unknown }

const DAYS: Record<string, number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 }

function hourMinute(time: string): [number, number] {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time)
  const [hour, minute] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN]
  if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59)) throw new Error(`"${time}" is not a time of day: use HH:MM, e.g. 13:00.`)
  return [hour, minute]
}

/**
 * One task of the schedule: what it runs and when, as a cron expression that
 * the frequency methods write (`everyMinute()` is `* * * * *`). Times are
 * the server's local time unless `timezone()` says otherwise.
 *
 * @example
 * ```ts
 * defineSchedule((Schedule) => {
 *   Schedule.command('reports:send').weeklyOn('monday', '08:00').timezone('Europe/Paris').withoutOverlapping()
 * })
 * ```
 */
export class ScheduledTask {
  /** The cron expression (five fields: minute hour day-of-month month day-of-week). */
  expression = '* * * * *'
  /** An IANA time zone for the expression, e.g. `Europe/Paris`. */
  zone?: string
  /** Minutes after which another run's lock counts as stale (when `withoutOverlapping`). */
  overlapMinutes?: number
  /** Whether only one server runs it each time it is due (`onOneServer`). */
  oneServer = false
  /** What `schedule:list` shows. */
  label: string

  constructor(readonly action: ScheduledAction) {
    this.label = action.kind === 'command' ? ['kiln', action.name, ...action.args].join(' ') : 'Closure'
  }

  /** Any five-field cron expression. @example `Schedule.command('backup').cron('30 2 * * 1-5')` */
  cron(expression: string): this {
    if (expression.trim().split(/\s+/).length !== 5) throw new Error(`"${expression}" is not a five-field cron expression (minute hour day month weekday).`)
    this.expression = expression.trim()
    return this
  }

  /** @example `Schedule.call(tick).everyMinute()` */
  everyMinute(): this {
    return this.cron('* * * * *')
  }

  /** Every `n` minutes (n divides 60 best). @example `Schedule.command('feeds:poll').everyMinutes(5)` */
  everyMinutes(n: number): this {
    if (!Number.isInteger(n) || n < 1 || n > 59) throw new Error(`everyMinutes() takes 1 to 59, got ${n}.`)
    return this.cron(`*/${n} * * * *`)
  }

  /** @example `Schedule.command('feeds:poll').everyFiveMinutes()` */
  everyFiveMinutes(): this {
    return this.everyMinutes(5)
  }

  /** At `minute` past every hour. @example `Schedule.command('stats').hourly()` */
  hourly(minute = 0): this {
    return this.cron(`${minute} * * * *`)
  }

  /** At midnight. @example `Schedule.command('session:gc').daily()` */
  daily(): this {
    return this.dailyAt('00:00')
  }

  /** Each day at `HH:MM`. @example `Schedule.call(report).dailyAt('13:00')` */
  dailyAt(time: string): this {
    const [hour, minute] = hourMinute(time)
    return this.cron(`${minute} ${hour} * * *`)
  }

  /** Sundays at midnight. @example `Schedule.command('prune').weekly()` */
  weekly(): this {
    return this.weeklyOn('sunday', '00:00')
  }

  /** One day of the week at `HH:MM`. @example `Schedule.command('reports:send').weeklyOn('monday', '08:00')` */
  weeklyOn(day: keyof typeof DAYS | (string & {}), time = '00:00'): this {
    const weekday = DAYS[day.toLowerCase()]
    if (weekday === undefined) throw new Error(`"${day}" is not a day of the week.`)
    const [hour, minute] = hourMinute(time)
    return this.cron(`${minute} ${hour} * * ${weekday}`)
  }

  /** The first of each month at midnight. @example `Schedule.command('invoices').monthly()` */
  monthly(): this {
    return this.cron('0 0 1 * *')
  }

  /** Reads the expression in that IANA time zone. @example `.dailyAt('09:00').timezone('America/New_York')` */
  timezone(zone: string): this {
    this.zone = zone
    return this
  }

  /**
   * Skips a run while the previous one still runs, in this process or in
   * another `schedule:run`: on every server when the `cache` store of
   * config/storage.ts is shared (redis), else on this machine (a lock file
   * under `storage/framework/schedule/`). The lock expires after
   * `expiresAfterMinutes`, so a run that crashed does not hold it forever.
   *
   * @example
   * ```ts
   * Schedule.command('imports:run').everyMinute().withoutOverlapping()
   * ```
   */
  withoutOverlapping(expiresAfterMinutes = 1440): this {
    if (!(expiresAfterMinutes > 0)) throw new Error(`withoutOverlapping() takes a number of minutes above 0, got ${expiresAfterMinutes}.`)
    this.overlapMinutes = expiresAfterMinutes
    return this
  }

  /**
   * Runs the task on one server only each time it is due: the first
   * `schedule:run` to claim it for that minute in the `cache` store runs
   * it, the others skip it. The cache store must be shared by the servers
   * (`CACHE_STORE=redis`): `schedule:run` refuses the schedule otherwise.
   *
   * @example
   * ```ts
   * Schedule.command('reports:send').dailyAt('08:00').onOneServer()
   * ```
   */
  onOneServer(): this {
    this.oneServer = true
    return this
  }

  /** What `schedule:list` calls it. @example `Schedule.call(prune).daily().description('Prune old uploads')` */
  description(text: string): this {
    this.label = text
    return this
  }
}

/**
 * The schedule that `routes/console.ts` fills: `command()` for a `kiln`
 * command, `call()` for a function.
 *
 * @example
 * ```ts
 * const schedule = new Schedule()
 * schedule.command('session:gc').hourly()
 * ```
 */
export class Schedule {
  readonly tasks: ScheduledTask[] = []

  /** A `kiln` command, run inside the booted app. @example `Schedule.command('queue:flush', ['--queue=mail']).daily()` */
  command(name: string, args: string[] = []): ScheduledTask {
    return this.add(new ScheduledTask({ kind: 'command', name, args }))
  }

  /** A function, run inside the booted app (facades and models work). @example `Schedule.call(() => Cache.forget('stats')).hourly()` */
  call(fn: () => unknown): ScheduledTask {
    return this.add(new ScheduledTask({ kind: 'call', fn }))
  }

  private add(task: ScheduledTask): ScheduledTask {
    this.tasks.push(task)
    return task
  }
}

/** What `routes/console.ts` exports by default. */
export type ScheduleDefinition = (schedule: Schedule) => void | Promise<void>

/**
 * Declares the app's schedule in `routes/console.ts` (its default export):
 * `kiln schedule:run` runs what is due, `schedule:work` runs it every
 * minute, `schedule:list` shows it.
 *
 * @example
 * ```ts
 * // routes/console.ts
 * export default defineSchedule((Schedule) => {
 *   Schedule.command('session:gc').hourly()
 *   Schedule.call(() => console.log('lunch')).dailyAt('13:00')
 * })
 * ```
 */
export function defineSchedule(definition: ScheduleDefinition): ScheduleDefinition {
  return definition
}
