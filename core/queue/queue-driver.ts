import type { JobPayload } from './payload.ts'

/** Where a job goes and when. */
export interface PushOptions {
  queue: string
  delay: number
  tries: number
  backoff: number | number[]
}

/** A queue connection: `sync`, `memory`, `redis`, or an app's own. */
export interface QueueDriver {
  push(payload: JobPayload, options: PushOptions): Promise<void>
  /** Waits until nothing is pending (memory, sync); a no-op for external queues. */
  flush?(): Promise<void>
  close?(): Promise<void>
}
