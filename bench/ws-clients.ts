/**
 * The socket side of the realtime benches, run as a separate process
 * (`fork`): opens COUNT websockets to URL, subscribes each to `bench` with a
 * frame (MODE `rt`: the native protocol; `raw`: the bare crossws server's
 * `{event:'subscribe'}`, answered `{event:'subscribed'}`) and reports over IPC. Latency is the
 * wall clock at receipt minus the `sent` stamp in the payload; both processes
 * read the same clock (performance.timeOrigin + now).
 *
 * Messages from the parent: `{ type: 'stats' }` → `{ type: 'stats', p50, p99, deliveries, histogram }`, `{ type: 'exit' }`.
 * Messages to the parent: `{ type: 'ready', rss }`, `{ type: 'done', id }` when every socket got event `id`.
 */
import WebSocket from 'ws'

const [url, countText, mode] = process.argv.slice(2)
const count = Number(countText)
const now = () => performance.timeOrigin + performance.now()
const stamp = /"id":(\d+),"sent":([\d.]+)/
const received = new Map<number, number>()
let latencies: number[] = []
const sockets: WebSocket[] = []
const EDGES = [5, 10, 20, 30, 40, 50, 75, 100, Infinity]
const SUBSCRIBE = '{"event":"subscribe","data":{"channel":"bench"}}'

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false })
    sockets.push(socket)
    let subscribed = false
    socket.on('error', reject)
    socket.on('open', () => {
      if (mode === 'raw') socket.send(SUBSCRIBE)
    })
    socket.on('message', (data) => {
      const text = String(data)
      const match = stamp.exec(text)
      if (match) {
        latencies.push(now() - Number(match[2]))
        const id = Number(match[1])
        const seen = (received.get(id) ?? 0) + 1
        received.set(id, seen)
        if (seen === count) {
          received.delete(id)
          process.send!({ type: 'done', id })
        }
        return
      }
      if (!subscribed && text.includes('svc:connection_established')) socket.send(SUBSCRIBE)
      else if (!subscribed && (text.includes('svc:subscription_succeeded') || text === '{"event":"subscribed"}')) {
        subscribed = true
        resolve()
      }
    })
  })
}

for (let i = 0; i < count; i += 250) {
  await Promise.all(Array.from({ length: Math.min(250, count - i) }, open))
}
process.send!({ type: 'ready' })

process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    const sorted = latencies.sort((a, b) => a - b)
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
    // Counts of deliveries per latency bucket (upper edges in ms, the last open-ended).
    const histogram = EDGES.map(() => 0)
    for (const latency of sorted) histogram[EDGES.findIndex((edge) => latency <= edge)]!++
    process.send!({ type: 'stats', p50: at(0.5), p99: at(0.99), deliveries: sorted.length, histogram })
    latencies = []
  } else if (message.type === 'exit') {
    for (const socket of sockets) socket.terminate()
    process.exit(0)
  }
})
