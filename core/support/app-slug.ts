/**
 * The app's name (`APP_NAME`, `config/app.ts` `name`) as a lower-case slug of
 * letters, digits and `_`: the stem of its session cookie (`<slug>_session`)
 * and of its Redis key prefixes (`<slug>:sessions`, `<slug>:<store>`, the
 * queue's `<slug>`, rt's and kv's `<slug>:`). Two apps with different names
 * on one host or one Redis therefore never share sessions, caches or
 * channels. A name with no letter or digit falls back to `kiln`.
 *
 * @example
 * ```ts
 * appSlug('My Shop') // 'my_shop'
 * appSlug('Kiln')    // 'kiln'
 * ```
 */
export function appSlug(name: string | undefined): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return slug || 'kiln'
}
