import { onComponent } from '../../../client/component-hooks.ts'
import { wrapApply } from '../../../client/effects.ts'
import { interceptRequest } from '../../../client/interceptors.ts'
import type { PageComponent } from '../../../client/page-component.ts'
import { components } from '../../../client/registry.ts'

type Deliver = (data: unknown) => void

/** The parts of `@kiln/rt` echo listeners use (it is loaded beside comp.js, not bundled). */
interface RtChannel {
  listen(event: string, fn: Deliver): RtChannel
  stopListening(event: string, fn?: Deliver): RtChannel
  error(fn: (error: { message: string }) => void): RtChannel
  [presence: string]: unknown
}
interface RtClient {
  channel(name: string): RtChannel
  private(name: string): RtChannel
  join(name: string): RtChannel
  leave(name: string): void
  connect(): Promise<void>
  socketIdHeader(): Record<string, string>
}
type RtClass = new (options: { basePath: string }) => RtClient

declare global {
  interface Window {
    /** `@kiln/rt`'s class, set by `/broadcasting/rt.js` once a page imported it. */
    KilnRt?: RtClass
  }
}

// echo:<channel>,<Event> · echo-private: · echo-presence:<channel>,<Event|here|joining|leaving> · echo-notification:<channel>
const NAME = /^echo(?:-(private|presence|notification))?:([^,]+)(?:,(.+))?$/

let client: Promise<RtClient | undefined> | undefined
/** Listeners holding each channel, by its name without prefix (`rt.leave` leaves every form of a name). */
const uses = new Map<string, number>()
/** Each component's echo subscriptions, by listener name: how to end each. */
const held = new Map<PageComponent, Map<string, () => void>>()

/** The page's realtime client for components: one socket, made when the first echo listener needs it. */
async function load(config: PageComponent['config']): Promise<RtClient | undefined> {
  try {
    const Rt = window.KilnRt ?? (config.rt ? ((await import(config.rt)) as { Rt: RtClass }).Rt : undefined)
    // Without the websocket broadcaster (BROADCAST_CONNECTION=log, a new app's default) there is nothing to hear. Not
    // said in the console: every visitor's page would repeat it; the broadcasting docs say it once.
    if (!Rt) return undefined
    const rt = new Rt({ basePath: config.base })
    rt.connect().catch((error: unknown) => console.warn('comp: the realtime connection failed:', error))
    // Component requests name this socket, so a broadcast sent with toOthers() does not come back to the page that caused it.
    interceptRequest(({ request }) => void Object.assign(request.options.headers, rt.socketIdHeader()))
    return rt
  } catch (error) {
    return void console.warn('comp: the realtime client did not load:', error)
  }
}

/** Subscribes one echo listener; gives back how to end it (at once, even while the client is still loading). */
function subscribe(component: PageComponent, name: string): () => void {
  const [, kind, channelName = '', event = 'BroadcastNotificationCreated'] = NAME.exec(name) ?? []
  let active = true
  let end = () => {}
  const deliver: Deliver = (data) => void (active && component.call('$event', [name, data]))
  void (client ??= load(component.config)).then((rt) => {
    if (!rt || !active) return
    const channel = kind === 'presence' ? rt.join(channelName) : kind ? rt.private(channelName) : rt.channel(channelName)
    uses.set(channelName, (uses.get(channelName) ?? 0) + 1)
    channel.error(({ message }) => active && console.warn(`comp: ${name}: ${message}`))
    // Presence moments cannot be unbound: they stop delivering once ended. `here` gives { members }, the others the member.
    if (kind === 'presence' && /^(here|joining|leaving)$/.test(event))
      (channel[event] as (fn: Deliver) => void)((value) => deliver(event === 'here' ? { members: value } : value))
    else channel.listen(event, deliver)
    end = () => {
      channel.stopListening(event, deliver)
      const left = (uses.get(channelName) ?? 1) - 1
      if (left > 0) return void uses.set(channelName, left)
      uses.delete(channelName)
      rt.leave(channelName)
    }
  })
  return () => {
    active = false
    end()
  }
}

/** Makes a component's subscriptions match its echo listeners (their names change with the state their placeholders read). */
function sync(component: PageComponent): void {
  if (components.get(component.id) !== component) return
  const wanted = (component.memo.listeners ?? []).filter((name) => name.startsWith('echo'))
  let mine = held.get(component)
  if (!mine && wanted.length === 0) return
  if (!mine) held.set(component, (mine = new Map()))
  for (const [name, end] of mine)
    if (!wanted.includes(name)) {
      end()
      mine.delete(name)
    }
  for (const name of wanted) if (!mine.has(name)) mine.set(name, subscribe(component, name))
}

function drop(component: PageComponent): void {
  for (const end of held.get(component)?.values() ?? []) end()
  held.delete(component)
}

onComponent({ start: sync, remove: drop })
// wire:navigate swaps the whole body: the components left behind in the old one stop hearing (persisted ones moved along).
document.addEventListener('comp:navigated', () => {
  for (const component of [...held.keys()]) if (!component.el.isConnected) drop(component)
})
wrapApply((component, _effects, apply) => {
  apply()
  sync(component)
})
