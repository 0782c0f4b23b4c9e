import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'

// How long a refused request's connection stays open after its answer (nginx's lingering close waits up to 30 s).
const LINGER_MS = 2000
const LINGERING = Symbol('kiln.lingering')

type ClosingSocket = Socket & { destroySoon?: () => void; [LINGERING]?: true }

/**
 * Makes the connection of a request whose body was refused (413) close as
 * nginx's lingering close does: once the answer is written the server sends
 * FIN, then waits up to 2 s for the client to close before it closes. Closing
 * a socket with unread bytes of the refused body in its receive buffer sends
 * a TCP reset at once, and a reset that reaches the client before it read
 * the answer loses the answer: the client sees "connection reset" instead of
 * the 413. Nothing more of the body is kept meanwhile (what the parser still
 * hands the request is dropped).
 *
 * @example
 * ```ts
 * if (size > limit) {
 *   lingerOnClose(req)
 *   throw new HttpException(413, 'The request body is too large.', { headers: { connection: 'close' } })
 * }
 * ```
 */
export function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket as ClosingSocket | null
  if (!socket || socket[LINGERING]) return
  socket[LINGERING] = true
  // Node's HTTP server ends a `Connection: close` answer with `destroySoon()`: FIN, then destroy once written.
  socket.destroySoon = function (this: ClosingSocket) {
    if (this.writable) this.end()
    const close = () => this.destroy()
    const timer = setTimeout(close, LINGER_MS)
    timer.unref()
    this.once('close', () => clearTimeout(timer))
    this.once('end', close)
    // What the HTTP parser still feeds the request flows to no listener: dropped, never buffered.
    req.resume()
    this.resume()
  }
}
