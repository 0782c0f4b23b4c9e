import { readFileSync } from 'node:fs'
import { freePort, redisLink, redisServer, type RedisLink, type RedisServer } from '../../../fixtures/redis-server.ts'
import { rtApp, type RtApp } from './rt-fixtures.ts'

type T = Parameters<typeof rtApp>[0]

/** rt processes sharing one redis-server of the test's own. */
export interface RtCluster {
  redis: RedisServer
  /** `redis://127.0.0.1:<port>` of the server itself. */
  url: string
  nodes: RtApp[]
  /** Per node: the link it reaches Redis through, when it was asked for one. */
  links: Array<RedisLink | undefined>
}

/**
 * Starts a redis-server and `nodes` rt apps scaled over it (prefix
 * `cluster:`, quick heartbeats, a 1 s Redis timeout), each logging to
 * `storage/logs/rt.log` (see {@link logLines}). Nodes listed in `linked`
 * reach Redis through a {@link RedisLink} the test can cut.
 *
 * The timeout is long enough that a heartbeat delayed by a loaded machine
 * (CI shares two cores with other suites) is not taken for an outage, and
 * short enough that a stalled Redis is still refused well within the
 * tests' 3 s hang checks.
 *
 * @example
 * ```ts
 * const { redis, nodes: [a, b] } = await rtCluster(t, { nodes: 2 })
 * ```
 */
export async function rtCluster(
  t: T,
  { nodes = 2, linked = [] as number[], heartbeatSeconds = 0.2, timeoutMs = 1000, options = {} as Record<string, unknown> } = {},
): Promise<RtCluster> {
  const port = await freePort()
  const redis = await redisServer(t, port)
  const url = `redis://127.0.0.1:${port}`
  const links = await Promise.all(Array.from({ length: nodes }, (_, i) => (linked.includes(i) ? redisLink(t, port) : undefined)))
  const logging = { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/rt.log' } } }
  const apps = await Promise.all(
    links.map((link) =>
      rtApp(
        t,
        { ...options, scaling: { enabled: true, url: link?.url ?? url, prefix: 'cluster:', heartbeat_seconds: heartbeatSeconds, timeout_ms: timeoutMs } },
        { config: logging },
      ),
    ),
  )
  return { redis, url, nodes: apps, links }
}

/** The JSON lines a node logged so far. @example `logLines(a).filter((l) => l.level === 40)` */
export function logLines(rt: RtApp): Array<{ level: number; msg: string; [key: string]: unknown }> {
  const text = readFileSync(`${rt.app.root}/storage/logs/rt.log`, 'utf8').trim()
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line))
}

/** The user ids on a presence channel's roster, as Redis holds it, sorted. */
export async function userIds(rt: RtApp, channel: string): Promise<number[]> {
  return (await rt.broadcaster.server.members(channel)).map((m) => Number(m.user_id)).sort((a, b) => a - b)
}
