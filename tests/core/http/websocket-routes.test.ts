/**
 * A listening server hands each socket's events to the hooks of its own
 * route, found once by the socket's path when it upgrades: a route's
 * `upgrade` hook may refuse the socket or give it a context its later hooks
 * read, and several routes on one server keep their sockets apart.
 */
import test from 'ava'
import WebSocket from 'ws'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** Opens a socket and sends `text`; the first frame back, or the HTTP status that refused the upgrade. */
function exchange(url: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.on('open', () => ws.send(text))
    ws.on('message', (data) => {
      resolve(String(data))
      ws.close()
    })
    ws.on('unexpected-response', (_request, response) => resolve(`refused ${response.statusCode}`))
    ws.on('error', reject)
  })
}

test('each websocket route gets its own sockets; its upgrade hook refuses or gives the socket a context its other hooks read', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_BASE_PATH: '/sub' } })
  t.teardown(() => app.close())
  app.config.set('app.base_path', '/sub')
  const closed: string[] = []
  app.router.websocket('/echo', {
    message: (peer, message) => void peer.send(`echo:${message.text()}`),
    close: () => void closed.push('echo'),
  })
  app.router.websocket('/rooms/{room}', {
    upgrade(request) {
      const user = new URL(request.url).searchParams.get('user')
      if (!user) return new Response('Who are you?', { status: 401 })
      return { context: { user } }
    },
    open: (peer) => void peer.send(`welcome ${String(peer.context.user)}`),
    message: (peer, message) => void peer.send(`${String(peer.context.user)} says ${message.text()}`),
    close: () => void closed.push('rooms'),
  })
  const server = await app.listen()
  const base = `${server.url.replace('http', 'ws')}/sub`

  t.is(await exchange(`${base}/echo`, 'hi'), 'echo:hi')
  t.is(await exchange(`${base}/rooms/1?user=ada`, 'hello'), 'welcome ada')
  t.is(await exchange(`${base}/rooms/1`, 'hello'), 'refused 401')
  t.is(await exchange(`${base}/nope`, 'hello'), 'refused 404')

  // Two sockets at once, one per route: each frame reaches its own route's hooks.
  const [echo, room] = [new WebSocket(`${base}/echo`), new WebSocket(`${base}/rooms/2?user=bo`)]
  const frames = (ws: WebSocket) => {
    const seen: string[] = []
    ws.on('message', (data) => seen.push(String(data)))
    return seen
  }
  const [echoed, said] = [frames(echo), frames(room)]
  await Promise.all([echo, room].map((ws) => new Promise((resolve) => ws.once('open', resolve))))
  room.send('one')
  echo.send('two')
  for (let i = 0; i < 100 && echoed.length + said.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  t.deepEqual(echoed, ['echo:two'])
  t.deepEqual(said, ['welcome bo', 'bo says one'])
  echo.close()
  room.close()
  // Every socket that opened is closed through its own route's hook (the refused ones never opened).
  for (let i = 0; i < 100 && closed.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  t.deepEqual(closed.sort(), ['echo', 'echo', 'rooms', 'rooms'])
})
