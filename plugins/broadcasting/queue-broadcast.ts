import { randomUUID } from 'node:crypto'
import { afterCommit, currentApp, type Application } from '../../core/index.ts'
import { BroadcastEvent } from './broadcast-event-job.ts'
import { channelNames, ShouldBroadcast, ShouldBroadcastAfterCommit, ShouldBroadcastNow } from './should-broadcast.ts'
import { settleToOthers } from './socket-ids.ts'

/**
 * Sends a broadcast event the way its marker asks: now, queued, or queued
 * after commit. Channels and payload are captured here, at dispatch time.
 *
 * @example
 * ```ts
 * await queueBroadcast(new OrderShipped(order))
 * ```
 */
export async function queueBroadcast(event: ShouldBroadcast, app: Application = currentApp()): Promise<void> {
  if (!event.broadcastWhen()) return
  // Before the payload is captured: it carries the socket left out.
  await settleToOthers(event)
  const channels = channelNames(event)
  if (channels.length === 0) return
  const name = event.broadcastAs()
  const payload = JSON.parse(JSON.stringify(event.broadcastWith())) as Record<string, unknown>
  const socket = event.socket ?? null
  const connection = event.broadcastVia ?? null
  const manager = app.service('broadcast')
  if (connection) manager.assertDeliverable(connection)
  const id = randomUUID()
  if (event instanceof ShouldBroadcastNow) {
    await manager.send({ channels, event: name, payload, socket: socket ?? undefined, id }, connection ?? undefined)
    return
  }
  const job = new BroadcastEvent(channels, name, payload, socket, connection, id)
  const push = () => app.service('queue').push(job, { queue: event.broadcastQueue, connection: event.broadcastConnection })
  if (event instanceof ShouldBroadcastAfterCommit) afterCommit(push)
  else await push()
}

/**
 * Awaits every queued broadcast (and other in-process jobs): tests call it
 * before asserting.
 *
 * @example
 * ```ts
 * await OrderShipped.dispatch(order)
 * await flushBroadcasts()
 * ```
 */
export async function flushBroadcasts(app: Application = currentApp()): Promise<void> {
  await app.service('queue').flush()
}
