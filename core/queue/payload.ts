import { Model, modelByMorphName } from '../database/model/model.ts'
import { FORBIDDEN_KEYS } from '../support/dot-path.ts'
import { KilnError } from '../support/errors.ts'
import type { Job, JobClass } from './job.ts'
import { jobName, type JobRegistry } from './job-registry.ts'

/** A job as it travels: its class name and JSON-safe data. */
export interface JobPayload {
  job: string
  data: Record<string, unknown>
  attempts: number
}

/**
 * Serialises a job: own properties as JSON, models as `{ __model, key }`.
 *
 * @example
 * ```ts
 * serializeJob(new SendWelcome(user)) // { job: 'SendWelcome', data: { user: { __model: 'User', key: 1 } }, attempts: 0 }
 * ```
 */
export function serializeJob(job: Job): JobPayload {
  const data: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(job)) data[key] = encode(value)
  return { job: jobName(job.constructor as JobClass), data: JSON.parse(JSON.stringify(data)), attempts: 0 }
}

/**
 * Rebuilds a job from its payload, its class found by name in `jobs` (the
 * app's `app.service('queue').jobs`), reloading models by key.
 *
 * @example
 * ```ts
 * const job = await deserializeJob(payload, app.service('queue').jobs)
 * await job.handle()
 * ```
 */
export async function deserializeJob(payload: JobPayload, jobs: Pick<JobRegistry, 'find'>): Promise<Job> {
  const Class = await jobs.find(payload.job)
  const job = Object.create(Class.prototype) as Job
  for (const [key, value] of Object.entries(payload.data)) {
    if (FORBIDDEN_KEYS.has(key)) continue
    ;(job as unknown as Record<string, unknown>)[key] = await decode(value)
  }
  return job
}

function encode(value: unknown): unknown {
  if (value instanceof Model) return { __model: value.modelClass.morphName ?? value.modelClass.name, key: value.getKey() }
  if (Array.isArray(value)) return value.map(encode)
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = encode(v)
    return out
  }
  return value
}

async function decode(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(decode))
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    if (typeof record.__model === 'string' && 'key' in record) {
      const Class = modelByMorphName(record.__model)
      if (!Class) throw new KilnError(`Unknown model "${record.__model}" in a job payload.`)
      return (Class as unknown as { findOrFail(k: unknown): Promise<unknown> }).findOrFail(record.key)
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(record)) if (!FORBIDDEN_KEYS.has(k)) out[k] = await decode(v)
    return out
  }
  return value
}
