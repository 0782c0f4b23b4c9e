import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { definePlugin, parseAppKey, type Plugin } from '../../core/index.ts'
import { Checksums } from './protocol/checksum.ts'
import { compConfigSchema, type CompConfig } from './comp-config.ts'
import { ComponentManager } from './component-manager.ts'
import { hmacKey } from './protocol/keys.ts'
import { registerFullPageRoutes } from './rendering/full-page.ts'
import { injectAssets } from './assets/inject-assets.ts'
import { ComponentRegistry } from './registry/registry.ts'
import { SessionBinding } from './protocol/session-binding.ts'
import { REACTIVE, reactiveFile } from './assets/scripts.ts'
import { clientBundle } from './assets/client-bundle.ts'
import { updateHandler } from './pipeline/update-route.ts'
import { bootComponentFeatures, loadComponentFeatures, registerComponentFeatures } from './features/index.ts'
import { registerViewHelpers } from './rendering/view-helpers.ts'
import { tsPrivateMethods } from './registry/private-methods.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    comp: ComponentManager
  }
}

const STUBS = fileURLToPath(new URL('./stubs/', import.meta.url))

/**
 * The components plugin: server-driven components over a signed,
 * checksummed wire protocol. It adds `POST /comp/update`, `POST
 * /comp/upload`, `GET /comp/comp.js` (and Kiln's copies of Alpine.js),
 * `@compScripts` and `@comp(...)` in views, `Route.comp(...)`, and `kiln
 * make:comp`; components in `app/components` are found at boot.
 *
 * @example
 * ```ts
 * // config/app.ts
 * import { comp } from 'kiln-framework/comp'
 * plugins: [tok(), comp(), broadcasting()]
 * ```
 */
export function comp(): Plugin {
  return definePlugin({
    name: 'comp',
    config: { file: 'comp', schema: compConfigSchema },
    register(app) {
      const config = app.config.get<CompConfig>('comp')
      const appKey = parseAppKey(app.config.get<string>('app.key'))
      const checksums = new Checksums(config.checksum_key ?? hmacKey(appKey, 'comp:checksum'))
      const manager = new ComponentManager(
        app,
        new ComponentRegistry(),
        config,
        checksums,
        new SessionBinding(hmacKey(appKey, 'comp:session')),
        loadComponentFeatures,
      )
      app.instance('comp', manager, ComponentManager)
      // The features' own parts: the upload store, view helpers, published views, checks of the classes that register.
      registerComponentFeatures({ app, services: manager, registry: manager.registry })
      registerViewHelpers(app, manager)
      registerFullPageRoutes(app, manager)
      app.service('publisher').publishes('stubs', [{ from: STUBS, to: 'stubs' }])
    },
    async boot(app) {
      const manager = app.service('comp')
      const { config } = manager
      // Development only: TypeScript's `private` is erased, so a `private` method would still be callable from the browser.
      const warn = app.config.get<string>('app.env', 'production') !== 'production'
      await manager.registry.discover(resolve(app.root, config.path), (name, Class, file) => {
        if (!warn) return
        for (const method of tsPrivateMethods(readFileSync(file, 'utf8'))) {
          app.logger.warn(
            { component: name, method },
            `comp: ${Class.name}.${method}() is private in TypeScript only, so the browser can call it; write #${method}() to keep it on the server`,
          )
        }
      })
      // The generator (and the kernel's generator modules) load only when a command runs or is listed.
      app.commands.registerLazy('make:comp', async () => (await import('./make-comp-command.ts')).makeCompCommand)
      app.router
        .post(config.endpoint, updateHandler(manager))
        .middleware(['signed:relative', 'web'])
        .bodyLimit(config.limits.max_payload_bytes)
        .name('comp.update')
      // The features' routes (`POST /comp/upload`, `GET /comp/upload/preview`).
      await bootComponentFeatures({ app, services: manager, registry: manager.registry })
      app.assets.file(config.asset_url, await clientBundle())
      app.assets.file(REACTIVE.plain.url, reactiveFile(false))
      app.assets.file(REACTIVE.csp.url, reactiveFile(true))
      if (config.inject_assets) app.middleware.appendToGroup('web', injectAssets(manager))
      // Apps that point comp.path at a folder that does not exist get components only by registration.
      if (!existsSync(join(app.root, config.path))) app.logger.debug({ path: config.path }, 'comp: no components folder')
    },
  })
}
