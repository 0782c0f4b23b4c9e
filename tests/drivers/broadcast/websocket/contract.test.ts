import { startServer } from '../../../../core/testing/index.ts'
import websocketDriver, { DRIVER_NAME } from '../../../../drivers/broadcast/websocket/index.ts'
import { testBroadcaster, type Recorder } from '../../../contracts/broadcaster.contract.ts'
import { join, TestSocket } from './rt-fixtures.ts'

// The contract, observed by a real websocket client subscribed to the channels on the app's own rt server.
// toOthers shows as withheld: the observing socket is the sender's, and the sender's own broadcast never reaches it.
testBroadcaster(DRIVER_NAME, {
  plugins: [websocketDriver],
  observe: async ({ t, app }, channels) => {
    const server = await startServer(app)
    const socket = new TestSocket(`${server.url.replace('http', 'ws')}/broadcasting/socket`)
    t.teardown(() => socket.raw.terminate())
    const id = await socket.ready()
    for (const channel of channels) {
      const member = channel.startsWith('presence-') ? { user_id: 1 } : undefined
      const joined = await join(socket, id, channel, member, { key: 'app-key', secret: 'app-secret' })
      if (joined.event !== 'svc:subscription_succeeded') throw new Error(`could not join ${channel}: ${JSON.stringify(joined)}`)
    }
    const seen: Recorder = () =>
      socket.frames
        .filter((frame) => frame.channel !== undefined && !frame.event.startsWith('svc:'))
        .map((frame) => ({
          channel: frame.channel!,
          event: frame.event,
          data: typeof frame.data === 'string' ? JSON.parse(frame.data) : frame.data,
          raw: JSON.stringify(frame),
        }))
    seen.socketId = id
    return seen
  },
  can: { deliver: true, toOthers: 'withheld', encrypt: true },
  // In process, there is no server to be out of reach: the unreachable case is skipped.
  badConfig: { connection: { max_frame_bytes: -1 }, error: /^config\/broadcasting\.ts connections\.main: max_frame_bytes: / },
})
