// Preloaded (`node --import`) into each server of `npm run bench -- peers`, Kiln's and AdonisJS's alike: answers
// `{ type: 'peers:cpu' }` on the IPC channel with the process's CPU time (process.cpuUsage(), µs), so the bench reads
// the server's own CPU per request without touching the framework.
process.on('message', (message) => {
  if (message?.type === 'peers:cpu') process.send?.({ type: 'peers:cpu', usage: process.cpuUsage() })
})
