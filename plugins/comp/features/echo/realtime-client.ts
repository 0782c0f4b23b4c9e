/** Where the websocket broadcaster serves `@kiln/rt`'s browser build (docs/realtime.md). */
const RT_CLIENT = '/broadcasting/rt.js'

/**
 * The versioned address of the realtime client when this app serves it
 * (the websocket broadcaster is the active connection), for the boot
 * configuration: the browser loads it only once a component with echo
 * listeners starts. Undefined otherwise, and echo listeners then subscribe
 * to nothing. The components plugin never imports the broadcasting plugin:
 * the kernel's asset registry says what is served.
 *
 * @example
 * ```ts
 * const boot = { ..., rt: await realtimeClientUrl(app.assets) }
 * ```
 */
export async function realtimeClientUrl(assets: {
  has(urlPath: string): boolean
  versionedUrl(urlPath: string): Promise<string>
}): Promise<string | undefined> {
  return assets.has(RT_CLIENT) ? assets.versionedUrl(RT_CLIENT) : undefined
}
