// autocannon with a different header set per request, in turn (its CLI sends one set for every request):
// P1 authenticates with many tokens, as real clients do. Prints autocannon's JSON result, as `autocannon -j` does.
// Usage: node bench/cannon-rotating.mjs '{"url":"...","seconds":3,"connections":32,"method":"GET","headerSets":[{...}]}'
import autocannon from 'autocannon'

const { url, seconds, connections, method, headerSets } = JSON.parse(process.argv[2])
let next = 0
const result = await autocannon({
  url,
  duration: seconds,
  connections,
  method,
  requests: [{ setupRequest: (request) => ({ ...request, headers: headerSets[next++ % headerSets.length] }) }],
})
process.stdout.write(JSON.stringify(result))
