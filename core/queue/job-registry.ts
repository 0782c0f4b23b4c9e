import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { KilnError } from '../support/errors.ts'
import { Job, type JobClass } from './job.ts'
import { moduleFiles } from '../support/module-files.ts'

/**
 * A queued job (or queued listener) whose class this process does not know
 * by name. Trying again cannot help until the code changes, so it fails at
 * once: one log line, kept with the failed jobs for `kiln queue:retry`.
 *
 * @example
 * ```ts
 * if (error instanceof UnknownJobError) logger.error({ job: error.job }, error.message)
 * ```
 */
export class UnknownJobError extends KilnError {
  constructor(
    readonly job: string,
    private readonly problem: string,
    private readonly fix: string,
  ) {
    super(problem, { code: 'E_UNKNOWN_JOB', hint: `${fix} ${retryAdvice()}` })
    this.name = 'UnknownJobError'
  }

  /**
   * The one line a worker logs: what is unknown, where it belongs, and the
   * command that runs it again once fixed (with the job's id when known).
   *
   * @example
   * ```ts
   * logger.error({ job: error.job }, error.logLine('default:12'))
   * ```
   */
  logLine(id?: string): string {
    return `${this.problem} ${this.fix} ${retryAdvice(id)}`
  }
}

function retryAdvice(id?: string): string {
  return `It is kept with the failed jobs: after the fix, restart the worker and run kiln queue:retry ${id ?? '<id>'}${id ? '' : ' (kiln queue:failed lists the ids)'}.`
}

/** The name a job travels under: `static jobName`, else the class name. @example `jobName(SendWelcome) // 'SendWelcome'` */
export function jobName(Class: JobClass): string {
  return Class.jobName ?? Class.name
}

/**
 * One app's job classes by name, so that a worker process rebuilds a job it
 * never dispatched. Filled by the kernel and plugins as they register
 * (`app.service('queue').register(...)`), by `config/queue.ts` `jobs`, by
 * every dispatch, and on the first name it does not know by importing the
 * app's `app/jobs/` once: a web process that only dispatches never pays for
 * that import.
 *
 * @example
 * ```ts
 * const jobs = new JobRegistry('/srv/shop')
 * jobs.register(SendWelcome)
 * const Class = await jobs.find('SendWelcome')
 * ```
 */
export class JobRegistry {
  private readonly classes = new Map<string, JobClass>()
  private discovery?: Promise<number>

  /** `root`: the app's folder; `folder`: where its own jobs live, relative to it. */
  constructor(
    private readonly root: string,
    private readonly folder = 'app/jobs',
  ) {}

  /**
   * Makes job classes known by name. Two classes under one name would run
   * each other's payloads: refused.
   *
   * @example
   * ```ts
   * jobs.register(SendWelcome, ResizeImage)
   * ```
   */
  register(...jobs: JobClass[]): void {
    for (const Class of jobs) {
      const name = jobName(Class)
      const known = this.classes.get(name)
      if (known && known !== Class)
        throw new KilnError(`Two job classes are named "${name}", so a worker could not tell which one a queued "${name}" is.`, {
          code: 'E_JOB_NAME_TAKEN',
          hint: `Give one of them its own name: static jobName = 'billing.${name}'.`,
        })
      this.classes.set(name, Class)
    }
  }

  /** The class of a name, if known now. @example `jobs.get('SendWelcome')` */
  get(name: string): JobClass | undefined {
    return this.classes.get(name)
  }

  /** Every known name, sorted. @example `jobs.names() // ['BroadcastEvent', 'SendQueuedMail']` */
  names(): string[] {
    return [...this.classes.keys()].sort()
  }

  /**
   * The class of a name; on a name it does not know, it first imports the
   * app's `app/jobs/` (once). Rejects with {@link UnknownJobError}, whose
   * message says where a job belongs.
   *
   * @example
   * ```ts
   * const job = Object.create((await jobs.find(payload.job)).prototype)
   * ```
   */
  async find(name: string): Promise<JobClass> {
    const known = this.classes.get(name)
    if (known) return known
    await this.discover()
    const found = this.classes.get(name)
    if (found) return found
    throw new UnknownJobError(
      name,
      `Unknown job "${name}": no job class of that name is known to this process.`,
      `Keep the app's jobs in ${this.folder}/ (a worker imports them there by itself), or register the class where every process runs it: app.service('queue').register(${name}) in a plugin's register(), or jobs: [${name}] in config/queue.ts.`,
    )
  }

  /**
   * Imports every module under the app's jobs folder (once) and registers
   * the job classes they export. `find()` calls it on an unknown name.
   *
   * @example
   * ```ts
   * await jobs.discover() // 3
   * ```
   */
  discover(): Promise<number> {
    return (this.discovery ??= this.importFolder())
  }

  private async importFolder(): Promise<number> {
    const dir = join(this.root, this.folder)
    if (!existsSync(dir)) return 0
    let count = 0
    for (const file of moduleFiles(dir)) {
      const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>
      for (const value of new Set(Object.values(exported))) {
        if (typeof value === 'function' && value.prototype instanceof Job) {
          this.register(value as JobClass)
          count++
        }
      }
    }
    return count
  }
}
