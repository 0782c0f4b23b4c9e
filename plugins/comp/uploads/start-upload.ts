import { HttpException, type UrlSigner } from '../../../core/index.ts'
import type { Component } from '../component.ts'
import type { ComponentManager } from '../component-manager.ts'
import type { ComponentClass } from '../registry.ts'
import { publicProperties } from '../state.ts'

/** `$upload(property, files)`: checks what the browser is about to send and answers with a signed address for it. */
export function startUpload(manager: ComponentManager, component: Component, Class: ComponentClass, params: unknown[]): { property: string; url: string } {
  const [property, files] = params as [unknown, unknown]
  if (typeof property !== 'string' || !publicProperties(component).includes(property.split('.')[0]!)) throw new HttpException(422, `${Class.name} has no public property to upload into.`)
  if (!Array.isArray(files) || files.length === 0 || files.length > 20) throw new HttpException(422, 'Describe between 1 and 20 files to upload.')
  for (const file of files as Array<{ name?: unknown; type?: unknown; size?: unknown }>) manager.uploads.check(String(file?.name ?? ''), String(file?.type ?? ''), Number(file?.size))
  const signer = manager.app.service<UrlSigner>('signer')
  return { property, url: signer.sign('/comp/upload', { ttlMinutes: 30, params: { component: component.getId() } }) }
}
