import { extname } from 'node:path'
import { HttpException, Storage, type HttpContext } from 'kiln-framework'
import type { User } from '../models/user.ts'

/** The types an avatar is served as, by the extension `store()` gave it from the file's content. */
const TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' }

/** `GET /profile/avatar`: the signed-in user's avatar, as an image that cannot be read as a page. */
export class AvatarController {
  async show({ request }: HttpContext) {
    const key = request.user<User>()?.avatar
    const type = key ? TYPES[extname(key)] : undefined
    const bytes = key && type ? ((await Storage.store().getItemRaw(key.replaceAll('/', ':'))) as Uint8Array | null) : null
    if (!bytes || !type) throw new HttpException(404, 'No avatar yet.')
    return new Response(Uint8Array.from(bytes), {
      headers: {
        'content-type': type,
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, max-age=86400',
      },
    })
  }
}
