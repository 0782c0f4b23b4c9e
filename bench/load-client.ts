/**
 * A small HTTP load generator, run as a separate process so that it does not
 * share the server's event loop. Usage (JSON on stdout):
 *
 *   node --import=tsx bench/load-client.ts <url> <seconds> <concurrency> [header:value ...]
 *
 * Prints `{ requests, errors, seconds, rps }`. Only loopback targets are accepted.
 */
import http from 'node:http'

const [url, secondsArg = '3', concurrencyArg = '32', ...headerArgs] = process.argv.slice(2)
if (!url) {
  console.error('usage: load-client <url> <seconds> <concurrency> [header:value ...]')
  process.exit(1)
}
const target = new URL(url)
if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
  console.error('load-client only targets loopback addresses')
  process.exit(1)
}
const headers: Record<string, string> = {}
for (const h of headerArgs) {
  const i = h.indexOf(':')
  headers[h.slice(0, i)] = h.slice(i + 1)
}
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrencyArg) })
const deadline = Date.now() + Number(secondsArg) * 1000
let requests = 0
let errors = 0

function once(): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(target, { agent, headers }, (res) => {
      if (res.statusCode !== 200) errors++
      res.resume()
      res.on('end', () => {
        requests++
        resolve()
      })
    })
    req.on('error', () => {
      errors++
      resolve()
    })
    req.end()
  })
}

async function worker(): Promise<void> {
  while (Date.now() < deadline) await once()
}

const started = Date.now()
await Promise.all(Array.from({ length: Number(concurrencyArg) }, worker))
const seconds = (Date.now() - started) / 1000
agent.destroy()
console.log(JSON.stringify({ requests, errors, seconds, rps: Math.round(requests / seconds) }))
