import PusherJs from 'pusher-js'
import type * as PusherTypes from 'pusher-js/types/src/core/pusher.js'
import WebSocket from 'ws'
import { createApp, type Application, type Plugin } from '../../../../core/index.ts'
import { startServer } from '../../../../core/testing/index.ts'
import { broadcasting, channelAuth } from '../../../../plugins/broadcasting/index.ts'
import websocketDriver, { type WebsocketBroadcaster } from '../../../../drivers/broadcast/websocket/index.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'

const PusherJsClient = PusherJs as unknown as new (key: string, options: object) => PusherTypes.default

export const KEY = 'rt-key'
export const SECRET = 'rt-secret'

/** A frame as the server sent it. */
export type Frame = { event: string; channel?: string; data?: any; user_id?: unknown }

/**
 * A real `ws` client that records every frame and waits for the ones a test
 * expects.
 */
export class TestSocket {
  readonly frames: Frame[] = []
  readonly raw: WebSocket
  readonly closed: Promise<{ code: number; reason: string }>
  private waiters: Array<() => void> = []

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.raw = new WebSocket(url, options)
    this.raw.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)))
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.raw.on('error', () => {})
    this.closed = new Promise((resolve) => this.raw.on('close', (code, reason) => resolve({ code, reason: String(reason) })))
  }

  /** Waits for (and consumes up to) the first frame matching `match`. */
  async next(match: (frame: Frame) => boolean = () => true, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.frames.findIndex(match)
      if (index >= 0) return this.frames.splice(0, index + 1).pop()!
      if (Date.now() > deadline) throw new Error(`No matching frame within ${timeoutMs} ms; saw ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()))
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  event(name: string, channel?: string, timeoutMs?: number): Promise<Frame> {
    return this.next((frame) => frame.event === name && (channel === undefined || frame.channel === channel), timeoutMs)
  }

  /** Resolves with the socket id once connected. */
  async ready(): Promise<string> {
    return (await this.event('svc:connection_established')).data.socket_id
  }

  send(frame: unknown): void {
    this.raw.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** Asserts nothing matching arrives within `ms` (a round trip through ping first). */
  async nothing(match: (frame: Frame) => boolean, ms = 150): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return !this.frames.some(match)
  }

  close(): void {
    this.raw.close()
  }
}

/** Subscribes, signing private and presence channels with the test credentials. */
export async function join(
  socket: TestSocket,
  socketId: string,
  channel: string,
  member?: { user_id: unknown; user_info?: unknown },
  credentials = { key: KEY, secret: SECRET },
): Promise<Frame> {
  const channelData = member ? JSON.stringify(member) : undefined
  const signed = channel.startsWith('private-') || channel.startsWith('presence-')
  socket.send({
    event: 'subscribe',
    data: {
      channel,
      ...(signed ? { auth: channelAuth(credentials.key, credentials.secret, socketId, channel, channelData) } : {}),
      ...(channelData ? { channel_data: channelData } : {}),
    },
  })
  return socket.next((frame) => frame.channel === channel && (frame.event === 'svc:subscription_succeeded' || frame.event === 'svc:error'))
}

export interface RtApp {
  app: Application
  url: string
  socketUrl: string
  broadcaster: WebsocketBroadcaster
  connect(options?: WebSocket.ClientOptions, path?: string): Promise<{ socket: TestSocket; id: string }>
}

/** An app whose active connection is `rt`, listening on a real port. */
export async function rtApp(
  t: { teardown(fn: () => unknown): void },
  options: Record<string, unknown> = {},
  extra: {
    plugins?: Plugin[]
    env?: Record<string, string>
    config?: Record<string, unknown>
    routes?: (app: Application) => unknown
    files?: Record<string, string>
  } = {},
): Promise<RtApp> {
  const app = await createApp({
    root: tempApp(extra.files),
    env: { APP_ENV: 'test', ...extra.env },
    plugins: [broadcasting(), websocketDriver, ...(extra.plugins ?? [])],
    config: { ...extra.config, broadcasting: { default: 'rt', connections: { rt: { driver: 'rt', key: KEY, secret: SECRET, ...options } } } },
  })
  await extra.routes?.(app)
  const server = await startServer(app)
  const sockets: TestSocket[] = []
  t.teardown(async () => {
    for (const socket of sockets) socket.raw.terminate()
    await app.close()
  })
  const socketUrl = `${server.url.replace('http', 'ws')}/broadcasting/socket`
  return {
    app,
    url: server.url,
    socketUrl,
    broadcaster: app.service('broadcast').connection() as WebsocketBroadcaster,
    async connect(clientOptions = {}, path = '/broadcasting/socket') {
      const socket = new TestSocket(`${server.url.replace('http', 'ws')}${path}`, clientOptions)
      sockets.push(socket)
      return { socket, id: await socket.ready() }
    },
  }
}

/**
 * A pusher-js client in Node, connected to an rt server's Pusher protocol
 * (`/app/{key}`) and authorised by `sign` (what /broadcasting/auth would answer).
 */
export async function pusherJs(
  t: { teardown(fn: () => unknown): void },
  key: string,
  url: string,
  sign: (socketId: string, channel: string) => unknown,
): Promise<PusherTypes.default> {
  const client = new PusherJsClient(key, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: Number(new URL(url).port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }: { socketId: string; channelName: string }, callback: (error: Error | null, data: unknown) => void) =>
        callback(null, sign(socketId, channelName)),
    },
  })
  t.teardown(() => client.disconnect())
  await new Promise<void>((resolve) => client.connection.bind('connected', () => resolve()))
  return client
}
