import { createInterface } from 'node:readline'
import type { REPLServer } from 'node:repl'
import type { Readable } from 'node:stream'

/**
 * Types the lines of a piped input into `server` one at a time, each once the
 * one before has finished, an `await` included. Node's REPL holds back the
 * keys of a terminal while an `await` runs, but not the lines of a pipe: they
 * would all be evaluated at once, print out of order, read variables not yet
 * assigned, and the end of the input would close the app under running
 * queries. A line has finished when the REPL shows its next prompt (`kiln> `,
 * or `... ` inside a multi-line statement). Resolves when the input ends or the
 * REPL leaves (`.exit`); the caller then closes the REPL.
 *
 * @example
 * ```ts
 * const server = start({ input: new PassThrough(), output: process.stdout, terminal: false })
 * await typePipedLines(server, process.stdin)
 * server.close()
 * ```
 */
export async function typePipedLines(server: REPLServer, input: Readable): Promise<void> {
  let prompted: boolean
  let closed = false
  let ready = (): void => {}
  const displayPrompt = server.displayPrompt
  server.displayPrompt = (preserveCursor?: boolean) => {
    displayPrompt.call(server, preserveCursor)
    prompted = true
    ready()
  }
  const onExit = (): void => {
    closed = true
    ready()
  }
  server.once('exit', onExit)
  const lines = createInterface({ input, crlfDelay: Infinity })
  try {
    for await (const line of lines) {
      prompted = false
      const finished = new Promise<void>((resolve) => (ready = resolve))
      // In a non-terminal REPL, write() handles the line at once, like a line read from its input.
      server.write(`${line}\n`)
      // `.editor` takes lines without a prompt until its end.
      if (!prompted && !closed && !server.editorMode) await finished
      if (closed) break
    }
  } finally {
    lines.close()
    server.off('exit', onExit)
    server.displayPrompt = displayPrompt
  }
}
