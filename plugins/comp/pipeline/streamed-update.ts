import { errorCode, HttpException, KilnError, logAfter, logStatus, renderDebugPage, type HttpContext } from '../../../core/index.ts'
import type { ComponentRun } from '../component-run.ts'
import { showsErrorPages } from './error-page.ts'

/** The request header by which the browser says it reads a streamed answer. */
export const STREAM_HEADER = 'x-comp-stream'

/** The content type of a streamed answer: one JSON value a line. */
export const STREAM_TYPE = 'application/x-ndjson; charset=utf-8'

const encoder = new TextEncoder()

/** The open stream of one update request: its body, and what it has sent so far. */
class StreamSink {
  private controller!: ReadableStreamDefaultController<Uint8Array>
  private closed = false
  private bytes = 0
  private begin!: () => void
  /** Resolves at the first chunk: the moment the answer turns into a stream. */
  readonly started = new Promise<true>((resolve) => (this.begin = () => resolve(true)))
  readonly body = new ReadableStream<Uint8Array>({
    start: (controller) => void (this.controller = controller),
    // The browser went away: the action may go on, its chunks are dropped.
    cancel: () => void (this.closed = true),
  })

  constructor(private readonly maxBytes: number) {}

  chunk(id: string, to: string, content: string, replace: boolean): void {
    this.bytes += Buffer.byteLength(content)
    if (this.bytes > this.maxBytes) {
      throw new KilnError(`A component streamed more than ${this.maxBytes} bytes in one answer.`, {
        code: 'E_COMP_STREAM_TOO_LARGE',
        hint: 'Raise comp.stream.max_kb, or stream less (replace instead of append).',
      })
    }
    this.line({ stream: { id, to, content, replace } })
    this.begin()
  }

  line(value: unknown): void {
    if (this.closed) return
    this.controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`))
  }

  end(value: unknown): void {
    this.line(value)
    if (this.closed) return
    this.closed = true
    this.controller.close()
  }
}

const sinks = new WeakMap<HttpContext, StreamSink>()

/**
 * `this.stream(to, content)` of a component: sends the chunk to the browser
 * now when the request reads streams, else drops it (the final render shows
 * the end result anyway). Throws `E_COMP_STREAM_TOO_LARGE` past the cap.
 *
 * @example
 * ```ts
 * streamChunk(runOf(this), 'answer', 'Hello', false)
 * ```
 */
export function streamChunk(run: ComponentRun, to: string, content: string, replace: boolean): void {
  const sink = run.ctx ? sinks.get(run.ctx) : undefined
  sink?.chunk(run.id, to, content, replace)
}

/**
 * Runs an update so that its components may stream. A request without the
 * `x-comp-stream` header, or whose actions never stream, gets `work`'s
 * answer as usual (JSON). Once an action streams its first chunk, the
 * answer becomes `application/x-ndjson`: `{"stream":{id,to,content,replace}}`
 * lines as the action sends them, then `{"response":...}` with the usual
 * answer, or `{"error":{status,message}}` when the action failed after
 * streaming began. `no-transform` and `x-accel-buffering: no` keep
 * compression and proxies from holding the chunks back.
 *
 * @example
 * ```ts
 * return streamedUpdate(ctx, services.config.stream.max_kb, () => updateComponent(services, payload, ctx))
 * ```
 */
export function streamedUpdate(ctx: HttpContext, maxKb: number, work: () => Promise<unknown>): Promise<unknown> {
  // No promise of its own for an answer that is not streamed: every update passes here.
  if (ctx.request.header(STREAM_HEADER) !== '1') return work()
  return streamed(ctx, maxKb, work)
}

async function streamed(ctx: HttpContext, maxKb: number, work: () => Promise<unknown>): Promise<unknown> {
  const sink = new StreamSink(maxKb * 1024)
  sinks.set(ctx, sink)
  const done = work()
  if (!(await Promise.race([done.then(() => false), sink.started]))) return done
  const ended = done.then(
    (response) => sink.end({ response }),
    async (error: unknown) => {
      const code = errorCode(error)
      sink.end({ error: { ...(await describe(ctx, error)), ...(code === undefined ? {} : { code }) } })
    },
  )
  // The request log waits for the end: a failure after the first chunk is logged with its status, not the stream's 200.
  logAfter(ctx, ended)
  return new Response(sink.body, {
    headers: { 'content-type': STREAM_TYPE, 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
  })
}

/**
 * An error after the stream began, as the status and JSON body the browser
 * would have got; a 500 is logged and says nothing more, except in debug
 * mode: its message, and for the browser's client the debug page (`page`),
 * shown in the error dialog.
 */
async function describe(ctx: HttpContext, error: unknown): Promise<{ status: number; message: string; page?: string }> {
  if (error instanceof HttpException) {
    logStatus(ctx, error.status)
    return { status: error.status, message: error.message }
  }
  logStatus(ctx, 500)
  const logger = ctx.app.hasService('logger') ? ctx.app.service('logger') : undefined
  if (logger) logger.error({ err: error, method: ctx.request.method, path: ctx.request.path }, 'Unhandled error in a streamed component update')
  else console.error('Unhandled error in a streamed component update', error)
  if (!ctx.app.debug || !(error instanceof Error)) return { status: 500, message: 'Server error.' }
  return { status: 500, message: error.message, ...(showsErrorPages(ctx) ? { page: await renderDebugPage(error, ctx, 500) } : {}) }
}
