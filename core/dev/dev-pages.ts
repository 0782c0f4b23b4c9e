/** Answers a request for one dev page: `rest` is what follows its name in the path (`''`, `/3/html`). */
export type DevPageHandler = (request: Request, rest: string) => Response | Promise<Response>

// Under the app's base path, beside the app's own routes: a name no app route is likely to take.
const PREFIX = '/_kiln/'

/**
 * The pages `kiln dev` serves beside the app, under `/_kiln/<name>`: what
 * a plugin shows a developer (the mail page). `kiln dev` makes one per
 * process and hands it to every application it creates (`app.dev`), so a
 * plugin may keep what it records across reloads; outside `kiln dev`,
 * `app.dev` is undefined and no page exists. `kiln dev` answers these pages
 * only with `APP_DEBUG` and only under its own host names; otherwise the
 * request goes to the app, as any other.
 *
 * @example
 * ```ts
 * app.dev?.page('hello', () => new Response('hello')) // GET /_kiln/hello under kiln dev
 * ```
 */
export class DevPages {
  private readonly pages = new Map<string, DevPageHandler>()

  /** Adds (or, after a reload, replaces) the page `/_kiln/<name>`. @example `dev.page('mail', handler)` */
  page(name: string, handler: DevPageHandler): this {
    this.pages.set(name, handler)
    return this
  }

  /**
   * The page's answer to `request`, undefined when its path names no page.
   *
   * @example
   * ```ts
   * const response = await dev.answer(request, app.urls.basePath)
   * ```
   */
  async answer(request: Request, basePath = ''): Promise<Response | undefined> {
    const path = new URL(request.url).pathname
    if (!path.startsWith(`${basePath}${PREFIX}`)) return undefined
    const [name = '', ...rest] = path.slice(basePath.length + PREFIX.length).split('/')
    const handler = this.pages.get(name)
    return handler ? handler(request, rest.length > 0 ? `/${rest.join('/')}` : '') : undefined
  }
}
