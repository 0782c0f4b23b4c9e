import { Form, validate } from 'kiln-framework/comp'
import { z } from 'zod'

/**
 * The new to-do's fields, with their rules. A component holds it as
 * `form = new TodoForm()`; its view binds `wire:model="form.title"`, and its
 * messages are keyed `form.title`. The title is checked when the browser
 * sends it and again by `this.form.validate()`.
 *
 * @example
 * ```ts
 * const { title } = this.form.validate() // the trimmed title, or the action stops with the messages
 * ```
 */
export class TodoForm extends Form {
  @validate(z.string().trim().min(3, 'A to-do needs at least 3 characters.').max(200, 'Keep it under 200 characters.'))
  title = ''
}
