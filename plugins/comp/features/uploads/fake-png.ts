import { crc32, deflateSync } from 'node:zlib'

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)

/**
 * A real PNG of `width` × `height` pixels, one grey colour: what a test's
 * fake image holds, so that the upload's sniffing (file-type) finds
 * `image/png` and a decoder reads its size. A few lines of zlib rather than
 * an image library, which Kiln does not otherwise need.
 *
 * @example
 * ```ts
 * const bytes = pngBytes(100, 100) // starts with \x89PNG
 * ```
 */
export function pngBytes(width: number, height: number): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width * height > 25_000_000)
    throw new RangeError(`A fake image is 1 to 5000×5000 pixels: ${width}×${height} is not.`)
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bits per sample
  header[9] = 0 // greyscale
  // Each row: filter type 0 (none), then one byte a pixel.
  const rows = Buffer.alloc((width + 1) * height, 0x80)
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length, 0)
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed) >>> 0, 0)
  return Buffer.concat([length, typed, crc])
}
