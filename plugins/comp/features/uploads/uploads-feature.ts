import { HttpException, parseAppKey } from '../../../../core/index.ts'
import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { hmacKey } from '../../protocol/keys.ts'
import type { StateContext } from '../../state/state.ts'
import { previewHandler } from './preview-handler.ts'
import { TemporaryUploadedFile } from './temporary-uploaded-file.ts'
import type { UploadRules } from './upload-decorator.ts'
import { declaredUploadRule } from './upload-rule.ts'
import { uploadHandler } from './upload-handler.ts'
import { keepUploadStore, openUpload, UploadStore, uploadStoreState } from './upload-store.ts'

/** `null` or references of files this session uploaded (one, or a list for `multiple`). */
async function uploadValue(value: unknown, path: string, context: StateContext, multiple: boolean): Promise<unknown> {
  if (value === null || value === '') return multiple ? [] : null
  const reference = (item: unknown) => typeof item === 'string' && item.startsWith('comp-upload:')
  if (!multiple && reference(value)) return openUpload(context, value as string)
  if (multiple && Array.isArray(value) && value.every(reference)) return Promise.all(value.map((item) => openUpload(context, item as string)))
  throw new HttpException(422, `"${path.slice(0, 100)}" takes ${multiple ? 'a list of uploaded files' : 'an uploaded file'}: upload it with $upload.`)
}

/**
 * File uploads, besides their hook (`$upload`, `$removeUpload`): the
 * temporary store, `POST /comp/upload` and `GET /comp/upload/preview`,
 * uploaded files in a component's state (by reference), and `@upload()`
 * properties taking references from the browser, whose rules `validate()`
 * checks too.
 *
 * @example
 * ```ts
 * installFeatures([uploadsFeature])
 * ```
 */
export const uploadsFeature: FeatureProvider = {
  name: 'uploads',
  stateTypes: [
    {
      t: 'upload',
      holds: (value) => value instanceof TemporaryUploadedFile,
      dehydrate: (value, path, types) => (types.push([path, { t: 'upload' }]), (value as TemporaryUploadedFile).reference),
      hydrate: (json, _type, context) => openUpload(context, String(json)),
      refusedUpdate: 'holds an uploaded file: only an @upload() property takes files.',
    },
  ],
  propertyKinds: {
    upload: {
      coerce: (value, path, kind, context) => uploadValue(value, path, context, (kind as { multiple?: boolean }).multiple === true),
      // One file inside a list of uploads is one upload.
      item: (kind) => ({ ...kind, multiple: false }),
      // What validate() checks the property with: its @upload() rules, written once.
      rule: (kind) => declaredUploadRule(kind as UploadRules),
    },
  },
  register({ app, services }) {
    const { config } = services
    const appKey = parseAppKey(app.config.get<string>('app.key'))
    const store = new UploadStore(app.service('storage'), config.uploads, hmacKey(appKey, 'comp:uploads'), (params) =>
      app.service('signer').sign('/comp/upload/preview', { ttlMinutes: config.uploads.preview_ttl_minutes, params }),
    )
    keepUploadStore(app, store, services)
    app.service('processState').declare(uploadStoreState(config.uploads.store, app.config.get(`storage.stores.${config.uploads.store}.driver`)))
  },
  boot({ app, services }) {
    app.router
      .post('/comp/upload', uploadHandler(services))
      .middleware(['signed:relative', 'web'])
      .bodyLimit(services.config.uploads.max_kb * 1024 + 65_536)
      .name('comp.upload')
    app.router.get('/comp/upload/preview', previewHandler(services)).middleware(['signed:relative', 'web']).name('comp.upload.preview')
  },
}
