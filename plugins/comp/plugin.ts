import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { definePlugin, parseAppKey, type Plugin } from '../../core/index.ts'
import { Checksums } from './checksum.ts'
import { compConfigSchema, type CompConfig } from './comp-config.ts'
import { ComponentManager } from './component-manager.ts'
import { hmacKey } from './keys.ts'
import { registerFullPageRoutes } from './full-page.ts'
import { injectAssets } from './inject-assets.ts'
import { PAGINATION_VIEW } from './features/pagination/with-pagination.ts'
import { ComponentRegistry } from './registry.ts'
import { SessionBinding } from './session-binding.ts'
import { REACTIVE, reactiveFile } from './scripts.ts'
import { clientBundle } from './client-bundle.ts'
import { updateHandler } from './update-route.ts'
import { loadComponentFeatures } from './features/index.ts'
import { uploadHandler } from './features/uploads/upload-handler.ts'
import { previewHandler } from './features/uploads/preview-handler.ts'
import { UploadStore, uploadStoreState } from './features/uploads/upload-store.ts'
import { registerViewHelpers } from './view-helpers.ts'
import { tsPrivateMethods } from './private-methods.ts'

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
      const uploads = new UploadStore(app.service('storage'), config.uploads, hmacKey(appKey, 'comp:uploads'), (params) =>
        app.service('signer').sign('/comp/upload/preview', { ttlMinutes: config.uploads.preview_ttl_minutes, params }),
      )
      const manager = new ComponentManager(
        app,
        // Outside production a component's `static template` is parsed as it registers, so a broken one fails at boot.
        new ComponentRegistry({ checkTemplates: app.config.get<string>('app.env', 'production') !== 'production' }),
        config,
        checksums,
        uploads,
        new SessionBinding(hmacKey(appKey, 'comp:session')),
        loadComponentFeatures,
      )
      app.instance('comp', manager, ComponentManager)
      app.service('processState').declare(uploadStoreState(config.uploads.store, app.config.get(`storage.stores.${config.uploads.store}.driver`)))
      registerViewHelpers(app, manager)
      registerFullPageRoutes(app, manager)
      const publisher = app.service('publisher')
      publisher.publishes('comp-views', [{ from: PAGINATION_VIEW, to: 'resources/views/components/pagination.hbs' }])
      publisher.publishes('stubs', [{ from: STUBS, to: 'stubs' }])
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
      app.router
        .post('/comp/upload', uploadHandler(manager))
        .middleware(['signed:relative', 'web'])
        .bodyLimit(config.uploads.max_kb * 1024 + 65_536)
        .name('comp.upload')
      app.router.get('/comp/upload/preview', previewHandler(manager)).middleware(['signed:relative', 'web']).name('comp.upload.preview')
      app.assets.file(config.asset_url, await clientBundle())
      app.assets.file(REACTIVE.plain.url, reactiveFile(false))
      app.assets.file(REACTIVE.csp.url, reactiveFile(true))
      if (config.inject_assets) app.middleware.appendToGroup('web', injectAssets(manager))
      // Apps that point comp.path at a folder that does not exist get components only by registration.
      if (!existsSync(join(app.root, config.path))) app.logger.debug({ path: config.path }, 'comp: no components folder')
    },
  })
}
