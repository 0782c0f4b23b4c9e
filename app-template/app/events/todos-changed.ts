import { InteractsWithSockets, PrivateChannel, ShouldBroadcast } from 'kiln-framework/broadcasting'

/**
 * A user's to-dos changed (added, ticked off, deleted): broadcast on the
 * user's own private channel (authorised in routes/channels.ts), so the
 * to-do list open in the user's other tabs and browsers reloads its page
 * (`@on('echo-private:app.models.User.{userId},TodosChanged')` in
 * app/components/todo-list.ts). Made with `kiln make:event TodosChanged --broadcast`.
 */
export class TodosChanged extends InteractsWithSockets(ShouldBroadcast) {
  constructor(public userId: number) {
    super()
  }

  broadcastOn() {
    return [new PrivateChannel(`app.models.User.${this.userId}`)]
  }
}
