import { randomBytes } from 'node:crypto'
import { HttpException, Limit, type HttpContext } from '../../../../core/index.ts'
import type { CompConfig } from '../../comp-config.ts'
import type { ComponentContext } from '../../lifecycle/component-hook.ts'
import { checkDescribedFile, uploadRulesOf, type EffectiveUploadRules } from './upload-rules.ts'

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
  // Accepted or not, earlier refusals of this property's files no longer stand.
  component.errors = Object.fromEntries(Object.entries(component.errors).filter(([key]) => key !== property && !key.startsWith(`${property}.`)))
  const refusals = refusalsOf(property, described, rules, config.max_kb)
  if (refusals) {
    component.errors = { ...component.errors, ...refusals }
    return undefined
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

/**
 * The validation errors of files the rules refuse, by the property (its
 * first message) and, for a `multiple` one, by `photos.0`-style keys; also
 * files that together exceed `max_kb`, the largest request the upload
 * address takes. Undefined when all are accepted.
 */
function refusalsOf(
  property: string,
  described: Array<{ name: string; type: string; size: number }>,
  rules: EffectiveUploadRules,
  maxKb: number,
): Record<string, string[]> | undefined {
  const errors: Record<string, string[]> = {}
  described.forEach((file, index) => {
    try {
      checkDescribedFile(file, rules)
    } catch (error) {
      if (!(error instanceof HttpException) || error.status !== 422) throw error
      errors[property] ??= [error.message]
      if (rules.multiple) errors[`${property}.${index}`] = [error.message]
    }
  })
  const total = described.reduce((sum, file) => sum + file.size, 0)
  if (!errors[property] && total > maxKb * 1024) errors[property] = [`These files may not be larger than ${maxKb} KB together.`]
  return Object.keys(errors).length > 0 ? errors : undefined
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
