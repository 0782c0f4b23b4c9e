/**
 * `npm run bench`: every benchmark runs Kiln and a baseline in the same run
 * and prints their ratio. Load comes from a separate client process, on
 * loopback only. Pass names to run a subset: `npm run bench -- kernel`.
 */
import { compUpdate } from './comp-update.ts'
import { kernelOverhead } from './kernel-overhead.ts'
import { peers } from './peers.ts'
import { rtFanout } from './rt-fanout.ts'
import { rtMemory } from './rt-memory.ts'
import { rtScaling } from './rt-scaling.ts'
import { serveWorkers } from './serve-workers.ts'
import { sessionGrowth } from './session-growth.ts'
import { installedApp } from './installed-app.ts'
import { startTime } from './start-time.ts'
import { tokenAuth } from './token-auth.ts'

const benches: Record<string, () => Promise<void>> = {
  kernel: kernelOverhead,
  tok: tokenAuth,
  comp: compUpdate,
  rt: rtFanout,
  'rt-memory': rtMemory,
  'rt-scaling': rtScaling,
  start: startTime,
  installed: installedApp,
  sessions: sessionGrowth,
  workers: serveWorkers,
  // Installs AdonisJS from the registry into a scratch folder (once) and takes minutes: only when named.
  peers,
}

const wanted = process.argv.slice(2)
const usage = `Usage: npm run bench [-- <name>...]\nNames: ${Object.keys(benches).join(', ')} (peers runs only when named).`
if (wanted.includes('--help') || wanted.includes('-h')) {
  console.log(usage)
  process.exit(0)
}
// A misspelt name would otherwise run nothing and exit 0, which reads as a clean run.
const unknown = wanted.filter((name) => !Object.hasOwn(benches, name))
if (unknown.length) {
  console.error(`Unknown bench: ${unknown.join(', ')}.\n${usage}`)
  process.exit(1)
}
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length ? !wanted.includes(name) : name === 'peers') continue
  await run()
}
process.exit(0)
