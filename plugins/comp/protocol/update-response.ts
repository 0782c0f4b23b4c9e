import type { ServerMemo } from './snapshot.ts'

/** What `POST /comp/update` answers. */
export interface UpdateResponse {
  effects: {
    html?: string
    islands?: Record<string, string>
    /** The properties whose value differs from what the browser sent, and those it updated. */
    data: Record<string, unknown>
    errors: Record<string, string[]>
    /** Events; `delivered` lists the components of a bundled request that already ran their listeners for it. */
    dispatches: Array<{ name: string; params: Record<string, unknown>; to?: string; self?: true; delivered?: string[] }>
    queryString?: Record<string, unknown>
    /** A freshly signed update address: every successful update rotates it. */
    endpoint: string
    js?: string[]
    redirect?: string
    /** A file an action sent (`this.download()`): a short-lived address for this session, and the name to save it under. */
    download?: { url: string; name: string }
    /** Where to send the files of a `$upload` call. */
    upload?: { property: string; url: string }
  }
  serverMemo: ServerMemo
}
