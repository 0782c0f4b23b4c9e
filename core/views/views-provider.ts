import { resolve } from 'node:path'
import { definePlugin } from '../application/define-plugin.ts'
import { escapeHtml } from '../http/errors/error-renderer.ts'
import { maskCsrfToken } from '../session/session-token.ts'
import { errorHelper, oldHelper } from './error-helper.ts'
import { HandlebarsEngine } from './handlebars-engine.ts'
import { handlebars } from './handlebars-module.ts'
import { classList, logicHelpers } from './logic-helpers.ts'
import { ViewManager } from './view-manager.ts'
import { viewsConfigSchema } from './views-config.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    views: ViewManager
  }
}

/**
 * The kernel's views provider: `app.service('views')` with the handlebars
 * engine, and the helpers every view has: `url`, `route`, `json`,
 * `csrfField`, `eq`/`ne`/`gt`/`gte`/`lt`/`lte`/`and`/`or`/`not`/`hash`,
 * `class`, `error` and `old`. A helper that prints HTML returns a `SafeString`, so double braces
 * print it (`{{csrfField}}`); `json` is text for a script or an attribute and
 * stays escaped in double braces (`{{{json x}}}` inside `<script>`).
 */
export const viewsProvider = definePlugin({
  name: 'kiln:views',
  config: { file: 'views', schema: viewsConfigSchema },
  services: {
    views: { make: (app) => new ViewManager(app), token: ViewManager },
  },
  register(app) {
    const views = app.views
    views.engines.extend<{ path?: string }>('handlebars', (app, { config }) => {
      const cache = app.config.get<boolean | undefined>('views.cache') ?? app.environment !== 'development'
      return new HandlebarsEngine(resolve(app.root, config.path ?? app.config.get<string>('views.path')), { cache, preprocessors: views.preprocessors })
    })
    views.share('appName', app.config.get('app.name'))
    views.helper('url', (path: string) => app.urls.to(typeof path === 'string' ? path : '/'))
    views.helper('route', (name: string, options: { hash?: Record<string, string | number> }) => app.urls.route(name, options?.hash ?? {}))
    views.helper('json', (value: unknown) => JSON.stringify(value ?? null).replace(/</g, '\\u003c'))
    views.helper('csrfField', function (this: { csrfToken?: string }) {
      return new (handlebars().SafeString)(`<input type="hidden" name="_token" value="${escapeHtml(this.csrfToken ?? '')}">`)
    })
    for (const [name, fn] of Object.entries(logicHelpers)) views.helper(name, fn)
    views.helper('class', classList)
    views.helper('error', errorHelper)
    views.helper('old', oldHelper)
  },
  boot(app) {
    app.service('views').composer(
      (ctx) => ({
        // Masked afresh for each render, so a compressed page's size tells nothing about the token (BREACH).
        csrfToken: ctx.session ? maskCsrfToken(ctx.session.token()) : undefined,
        user: ctx.request.user() ?? null,
        basePath: app.urls.basePath,
      }),
      ['csrfToken', 'user', 'basePath'],
    )
  },
})
