import { InteractsWithSockets, PresenceChannel, ShouldBroadcastNow } from 'kiln-framework/broadcasting'

/**
 * A chat message on the live page, sent at once (no queue) to everyone in
 * the presence channel `chat` except the sender's own socket (`toOthers()`).
 */
export class MessagePosted extends InteractsWithSockets(ShouldBroadcastNow) {
  constructor(
    public user: { id: number; name: string },
    public body: string,
  ) {
    super()
  }

  broadcastOn() {
    return [new PresenceChannel('chat')]
  }
}
