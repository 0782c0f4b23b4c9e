export { Rt } from './rt.ts'
export { Channel, EncryptedChannel, PrivateChannel, PresenceChannel, UNDECRYPTABLE } from './channel.ts'
export { backoff } from './backoff.ts'
export type { RtOptions, RtState, Member, Frame, SocketLike, SocketConstructor } from './types.ts'
