import { randomBytes } from 'node:crypto'
import { HttpException, Limit, type HttpContext } from '../../../../core/index.ts'
import type { CompConfig } from '../../comp-config.ts'
import type { ComponentContext } from '../../lifecycle/component-hook.ts'
import { checkDescribedFile, uploadRulesOf } from './upload-rules.ts'

/**
 * `$upload(property, files)`: checks what the browser is about to send
 * against the property's `@upload()` rules and the upload quotas, and
 * answers with an address for exactly those files: signed, short-lived,
 * for this session, component and property, usable once.
 *
 * A file the rules refuse (too large, a type not accepted) is a validation
 * error on the property (`$errors`), and no address; a property without
 * `@upload()` is 403; a session or address past its quota is 429.
 *
 * @example
 * ```ts
 * c.effects.upload = await startUpload(c, ['photo', [{ name: 'me.png', type: 'image/png', size: 1234 }]])
 * ```
 */
export async function startUpload(c: ComponentContext, params: unknown[]): Promise<{ property: string; url: string } | undefined> {
  const { component, Class, services } = c
  const ctx = c.run.ctx
  if (!ctx) throw new HttpException(422, 'Files are uploaded in a request.')
  const [property, files] = params as [unknown, unknown]
  if (typeof property !== 'string') throw new HttpException(422, '$upload takes the name of a property and the files to send.')
  const config = services.config.uploads
  const rules = uploadRulesOf(Class, property, config)
  const most = rules.multiple ? config.max_files : 1
  if (!Array.isArray(files) || files.length === 0 || files.length > most)
    throw new HttpException(422, most === 1 ? `${property} takes one file.` : `Describe between 1 and ${most} files to upload.`)
  const described = (files as Array<{ name?: unknown; type?: unknown; size?: unknown } | null>).map((file) => ({
    name: String(file?.name ?? ''),
    type: String(file?.type ?? ''),
    size: Number(file?.size),
  }))
  try {
    for (const file of described) checkDescribedFile(file, rules)
  } catch (error) {
    if (!(error instanceof HttpException) || error.status !== 422) throw error
    component.errors = { ...component.errors, [property]: [error.message] }
    return undefined
  }
  // Accepted: an earlier refusal of this property's file no longer stands.
  if (component.errors[property]) {
    const { [property]: _dropped, ...rest } = component.errors
    component.errors = rest
  }
  const kb = described.reduce((sum, file) => sum + Math.max(1, Math.ceil(file.size / 1024)), 0)
  const tag = services.binding.tag(ctx)
  await takeQuota(ctx, config, tag, kb)
  const signer = ctx.app.service('signer')
  const query = {
    c: c.name,
    id: component.getId(),
    p: property,
    s: tag,
    n: randomBytes(12).toString('base64url'),
    bytes: String(described.reduce((sum, file) => sum + file.size, 0)),
    files: String(described.length),
  }
  return { property, url: signer.sign('/comp/upload', { ttlMinutes: config.url_ttl_minutes, params: query }) }
}

/** Counts the kilobytes against the session's and the address's quota; 429 once either is used up. */
async function takeQuota(ctx: HttpContext, config: CompConfig['uploads'], tag: string, kb: number): Promise<void> {
  const limiters = ctx.app.service('limiters')
  const minutes = Math.max(1, Math.ceil(config.quota_window_minutes))
  const quotas = [
    { name: 'comp-upload-session', limit: Limit.perMinutes(minutes, Math.ceil(config.quota_mb * 1024)).by(tag) },
    { name: 'comp-upload-address', limit: Limit.perMinutes(minutes, Math.ceil(config.address_quota_mb * 1024)).by(ctx.request.ip() ?? 'unknown') },
  ]
  for (const { name, limit } of quotas) {
    const { allowed, retryAfter } = await limiters.attempt(name, limit, kb)
    if (!allowed)
      throw new HttpException(429, `Upload limit reached; try again in ${Math.ceil(retryAfter / 60)} minutes.`, {
        headers: { 'retry-after': String(retryAfter) },
      })
  }
}
