import { promisify } from 'node:util'
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliCompress, type Gzip } from 'node:zlib'

/** Bytes a `Response` accepts as its body. */
export type Bytes = Uint8Array<ArrayBuffer>

/** A content coding Kiln produces. */
export type Encoding = 'br' | 'gzip'

/** How hard to compress: brotli quality (0-11) and gzip level (1-9). */
export interface CompressionLevels {
  brotliQuality: number
  gzipLevel: number
}

/** The settings of `http.compression` (config/http.ts), as the HTTP kernel uses them. */
export interface CompressionOptions extends CompressionLevels {
  enabled: boolean
  /** Bodies smaller than this many bytes are sent as they are. */
  threshold: number
}

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

// Brotli first when the client weighs both the same: smaller for text at similar cost.
const PREFERENCE: readonly Encoding[] = ['br', 'gzip']

/**
 * The coding to send for an `Accept-Encoding` header: the acceptable one
 * (q > 0) with the highest weight, brotli on a tie; `*` covers codings not
 * named. Undefined means identity.
 *
 * @example
 * ```ts
 * pickEncoding('gzip, deflate, br') // 'br'
 * pickEncoding('br;q=0, gzip') // 'gzip'
 * ```
 */
export function pickEncoding(header: string | null | undefined): Encoding | undefined {
  if (!header) return undefined
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';')
    const name = rawName
      .trim()
      .toLowerCase()
      .replace(/^x-gzip$/, 'gzip')
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined)
    const weight = q === undefined ? 1 : Number(q)
    if (name && !weights.has(name)) weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  let best: Encoding | undefined
  let bestWeight = 0
  for (const coding of PREFERENCE) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0
    if (weight > bestWeight) [best, bestWeight] = [coding, weight]
  }
  return best
}

// Text formats compress well; images, fonts, archives and media are already compressed.
const TEXT_TYPES = new Set([
  'application/json',
  'application/javascript',
  'application/x-javascript',
  'application/xml',
  'application/wasm',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
])
// Streams are written piece by piece; buffering them to compress would hold back every event.
const STREAM_TYPES = new Set(['text/event-stream', 'application/x-ndjson', 'application/jsonl', 'application/json-seq'])

/**
 * Whether a `Content-Type` is worth compressing (text, JSON, JavaScript,
 * XML, SVG), excluding event streams.
 *
 * @example
 * ```ts
 * isCompressibleType('text/html; charset=utf-8') // true
 * isCompressibleType('image/png') // false
 * ```
 */
export function isCompressibleType(contentType: string | null | undefined): boolean {
  const type = mediaType(contentType)
  if (!type || STREAM_TYPES.has(type)) return false
  return type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')
}

/**
 * Whether a `Content-Type` names a stream of events or records.
 *
 * @example
 * ```ts
 * isStreamType('text/event-stream') // true
 * ```
 */
export function isStreamType(contentType: string | null | undefined): boolean {
  return STREAM_TYPES.has(mediaType(contentType))
}

function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase()
}

/**
 * Compresses a whole body.
 *
 * @example
 * ```ts
 * const body = await compressBytes(Buffer.from(html), 'br', { brotliQuality: 4, gzipLevel: 6 })
 * ```
 */
export async function compressBytes(bytes: Uint8Array, encoding: Encoding, levels: CompressionLevels): Promise<Bytes> {
  // zlib's output never lives in a SharedArrayBuffer; the cast says so to the Response types.
  if (encoding === 'gzip') return (await gzipAsync(bytes, { level: levels.gzipLevel })) as Bytes
  return (await brotli(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: levels.brotliQuality,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  })) as Bytes
}

/**
 * Compresses a body as it streams: every chunk is flushed through at once,
 * so a client sees each piece as soon as the app writes it.
 *
 * @example
 * ```ts
 * new Response(compressStream(response.body!, 'gzip', levels), { headers })
 * ```
 */
export function compressStream(body: ReadableStream<Uint8Array>, encoding: Encoding, levels: CompressionLevels): ReadableStream<Uint8Array> {
  const zlib: BrotliCompress | Gzip =
    encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: levels.brotliQuality } }) : createGzip({ level: levels.gzipLevel })
  const flushKind = encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH
  const write = (chunk: Uint8Array) => new Promise<void>((resolve, reject) => zlib.write(chunk, (error) => (error ? reject(error) : resolve())))
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        zlib.on('data', (data: Buffer) => {
          try {
            controller.enqueue(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
          } catch {
            // The reader went away (the client disconnected) while output was still coming: nothing is left to send it to.
            zlib.destroy()
          }
        })
        zlib.on('error', (error) => {
          try {
            controller.error(error)
          } catch {
            // Already closed by the reader's cancel: the error has nowhere to go.
          }
        })
      },
      async transform(chunk) {
        // Once destroyed (the reader left), a flush would never call back: the pipe would wait forever.
        if (zlib.destroyed) return
        await write(chunk)
        await new Promise<void>((resolve) => {
          zlib.once('close', resolve)
          zlib.flush(flushKind, () => {
            zlib.off('close', resolve)
            resolve()
          })
        })
      },
      flush() {
        return new Promise<void>((resolve, reject) => {
          zlib.once('end', resolve)
          zlib.once('error', reject)
          zlib.end()
        })
      },
    }),
  )
}
