import type { Application } from '../application/application.ts'
import { runWithApp } from '../application/current-app.ts'
import type { JobClass } from './job.ts'
import { UnknownJobError } from './job-registry.ts'
import { deserializeJob, type JobPayload } from './payload.ts'

/** A job that used all its tries. */
export interface FailedJob {
  job: string
  data: Record<string, unknown>
  error: string
  failedAt: Date
}

/**
 * Runs one attempt of a job inside the app (facades work in jobs). Resolves
 * to undefined on success, or the error.
 *
 * @example
 * ```ts
 * const error = await runJob(app, payload)
 * ```
 */
export async function runJob(app: Application, payload: JobPayload): Promise<unknown> {
  try {
    await runWithApp(app, async () => {
      const job = await deserializeJob(payload, app.service('queue').jobs)
      await job.handle()
    })
    return undefined
  } catch (error) {
    return error ?? new Error('Job failed')
  }
}

/**
 * True when trying the job again cannot help: this process knows no class
 * of its name. It fails at once, without its `failed()` hook (there is no
 * class to call it on).
 *
 * @example
 * ```ts
 * if (attempts < tries && !isFinalFailure(error)) retry()
 * ```
 */
export function isFinalFailure(error: unknown): error is UnknownJobError {
  return error instanceof UnknownJobError
}

/**
 * Records a job that failed for good: logs it with its payload (never
 * secrets: the logger redacts them) and calls its `failed()` hook. A job
 * whose class is unknown is one line, its message saying what to do.
 * `context` adds fields to the log line (the job's id in its queue).
 *
 * @example
 * ```ts
 * await recordFailure(app, payload, error, failedList)
 * ```
 */
export async function recordFailure(
  app: Application,
  payload: JobPayload,
  error: unknown,
  failed: FailedJob[],
  context: Record<string, unknown> = {},
): Promise<void> {
  failed.push({ job: payload.job, data: payload.data, error: (error as Error)?.message ?? String(error), failedAt: new Date() })
  if (isFinalFailure(error)) {
    app.logger.error({ ...context, job: payload.job, code: error.code }, error.logLine(typeof context.id === 'string' ? context.id : undefined))
    return
  }
  app.logger.error({ ...context, job: payload.job, payload: payload.data, attempts: payload.attempts, err: error }, 'Job failed')
  try {
    await runWithApp(app, async () => {
      const job = await deserializeJob(payload, app.service('queue').jobs)
      await job.failed?.(error)
    })
  } catch (hookError) {
    app.logger.error({ job: payload.job, err: hookError }, 'The failed() hook of a job threw')
  }
}

/** Delay before retry number `attempt` (1-based). @example `backoffFor([1000, 5000], 2) // 5000` */
export function backoffFor(backoff: number | number[], attempt: number): number {
  if (Array.isArray(backoff)) return backoff[Math.min(attempt - 1, backoff.length - 1)] ?? 0
  return backoff
}

export type { JobClass }
