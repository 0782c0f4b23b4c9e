import type { BootConfig } from '../../../client/alpine.ts'
import { showError } from '../../../client/overlay.ts'
import { closestComponent, components } from '../../../client/registry.ts'
import { RequestFailed } from '../../../client/request-failed.ts'
import { readAnswersWith } from '../../../client/transport.ts'

interface Chunk {
  id: string
  to: string
  content: string
  replace: boolean
}

// The header tells the server an action may stream its output (`this.stream()`): its answer is then NDJSON.
readAnswersWith({
  headers: { 'x-comp-stream': '1' },
  read: (response, config) => (response.body && response.headers.get('content-type')?.includes('ndjson') ? readStream(response.body, config) : undefined),
})

/**
 * Reads a streamed answer (NDJSON): each `{stream}` line is shown at once in
 * the component's `wire:stream` elements, and the `{response}` line is the
 * usual answer. An `{error}` line (the action failed after streaming
 * began), or an answer cut short, is shown like any failed update.
 */
async function readStream(body: NonNullable<Response['body']>, config: BootConfig): Promise<unknown> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (let done = false; !done;) {
    const next = await reader.read()
    done = next.done
    const lines = (buffer + (next.value ?? '')).split('\n')
    buffer = lines.pop()!
    for (const line of done ? [...lines, buffer] : lines) {
      if (!line.trim()) continue
      const message = JSON.parse(line) as { stream?: Chunk; response?: unknown; error?: { status: number; message: string; page?: string } }
      if (message.stream) show(message.stream)
      else if (message.response) return message.response
      else if (message.error) return fail(config, message.error.status, JSON.stringify(message.error))
    }
  }
  return fail(config, 0, 'The streamed answer ended before the update did.')
}

function fail(config: BootConfig, status: number, body: string): never {
  showError(config, status, body)
  throw new RequestFailed(`HTTP ${status}`, status, body)
}

/** Text only: a chunk becomes a text node (or the whole text with replace), never HTML. */
function show({ id, to, content, replace }: Chunk): void {
  const component = components.get(id)
  const name = CSS.escape(to)
  for (const el of component?.el.querySelectorAll(`[wire\\:stream="${name}"],[wire\\:stream\\.replace="${name}"]`) ?? []) {
    if (closestComponent(el) !== component) continue
    if (replace || el.hasAttribute('wire:stream.replace')) el.textContent = content
    else el.append(content)
  }
}
