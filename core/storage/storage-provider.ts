import { definePlugin } from '../application/define-plugin.ts'
import { storageConfigSchema } from './storage-config.ts'
import { StorageManager } from './storage-manager.ts'

declare module '../application/kiln-services.ts' {
  interface KilnServices {
    storage: StorageManager
  }
}

/** The kernel's storage provider: `app.service('storage')`; stores are disposed when the app closes. */
export const storageProvider = definePlugin({
  name: 'kiln:storage',
  config: { file: 'storage', schema: storageConfigSchema },
  register(app) {
    const storage = new StorageManager(app)
    app.instance(StorageManager, storage, 'storage')
    app.terminating(() => storage.stores.purge())
  },
})
