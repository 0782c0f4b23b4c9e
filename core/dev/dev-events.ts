/** A build as pages hear of it: its id, the build it follows, and how pages of that earlier build catch up. */
export interface BuildEvent {
  id: string
  since?: string
  refresh: 'components' | 'page'
}

/**
 * The event stream open pages listen to (`text/event-stream`): each new
 * stream hears the current build at once, every stream hears each new
 * one. Streams ask the browser to reconnect after 200 ms, so a page finds
 * the next server after a restart by itself.
 *
 * @example
 * ```ts
 * const events = new DevEvents('4121.0')
 * const response = events.stream() // answer GET /__kiln/dev/events with it
 * events.publish({ id: '4121.1', since: '4121.0', refresh: 'page' })
 * ```
 */
export class DevEvents {
  private readonly streams = new Set<ReadableStreamDefaultController<Uint8Array>>()
  private readonly encoder = new TextEncoder()

  constructor(private current: string) {}

  /** The id of the current build. @example `events.build // '4121.3'` */
  get build(): string {
    return this.current
  }

  /** A new stream's response. @example `return events.stream()` */
  stream(): Response {
    let self: ReadableStreamDefaultController<Uint8Array> | undefined
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        self = controller
        this.streams.add(controller)
        controller.enqueue(this.encoder.encode(`retry: 200\n${frame({ id: this.current, refresh: 'page' })}`))
      },
      cancel: () => {
        if (self) this.streams.delete(self)
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } })
  }

  /** Makes `event` the current build and tells every open page. @example `events.publish({ id, since, refresh: 'page' })` */
  publish(event: BuildEvent): void {
    this.current = event.id
    const chunk = this.encoder.encode(frame(event))
    for (const stream of this.streams) {
      try {
        stream.enqueue(chunk)
      } catch {
        this.streams.delete(stream)
      }
    }
  }

  /** Ends every stream (the server is stopping; pages reconnect to the next one). @example `events.close()` */
  close(): void {
    for (const stream of this.streams) {
      try {
        stream.close()
      } catch {
        // Already closed by its page.
      }
    }
    this.streams.clear()
  }
}

function frame(event: BuildEvent): string {
  return `event: build\ndata: ${JSON.stringify(event)}\n\n`
}
