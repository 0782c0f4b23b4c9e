import { HttpException, Storage, view } from 'kiln-framework'
import { Component, upload, uploadRule, type TemporaryUploadedFile } from 'kiln-framework/comp'
import { z } from 'zod'
import type { User } from '../models/user.ts'

/** What an avatar may be: a raster image by its content (never SVG, which can carry script), up to 2 MB. */
const AVATAR = { maxKb: 2048, mimes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] }

/**
 * The signed-in user's profile: choose an avatar, see it (through the
 * upload's `temporaryUrl()`, shown only to this session) before saving,
 * and save it into the app's storage. `/profile/avatar` serves it.
 */
export default class Profile extends Component {
  static title = 'Profile'
  static rules = z.object({ photo: uploadRule(AVATAR) })

  @upload(AVATAR) photo: TemporaryUploadedFile | null = null
  /** True right after a save: the next action forgets it. */
  saved = false

  hydrate() {
    this.saved = false
  }

  async save() {
    const { photo } = this.validate()
    const user = this.#user()
    const previous = user.avatar
    user.avatar = await photo.store('avatars')
    await user.save()
    if (previous) await Storage.store().removeItem(previous.replaceAll('/', ':'))
    this.reset('photo')
    this.saved = true
  }

  render() {
    const { name, email, avatar } = this.#user()
    // The file name changes with each save, so the browser never shows a cached old picture.
    return view('components/profile', { name, email, version: avatar ? avatar.split('/').pop() : null })
  }

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #user(): User {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user
  }
}
