import { KilnError } from '../../support/errors.ts'

/** Model not found: a 404 when it escapes a handler. */
export class ModelNotFoundError extends KilnError {
  readonly status = 404
  constructor(model: string, key: unknown) {
    super(`No ${model} with key ${String(key)}.`, { code: 'E_MODEL_NOT_FOUND' })
    this.name = 'ModelNotFoundError'
  }
}

/**
 * `create()`/`fill()` got attributes the model does not accept for mass
 * assignment (`fillable`/`guarded`): the message names them and the model.
 * It is the calling code's mistake (a 500): pass only what the model takes,
 * e.g. `request.only([...])`, or set such attributes one by one.
 *
 * @example
 * ```ts
 * await User.create({ name: 'Ada', is_admin: true })
 * // MassAssignmentError: User does not accept "is_admin" in create() or fill(). Add it to User.fillable, or set it on its own (model.is_admin = ...).
 * ```
 */
export class MassAssignmentError extends KilnError {
  constructor(
    readonly model: string,
    readonly attributes: string[],
  ) {
    const names = attributes.map((name) => `"${name}"`).join(', ')
    const plural = attributes.length > 1
    super(`${model} does not accept ${names} in create() or fill().`, {
      hint: `Add ${plural ? 'them' : 'it'} to ${model}.fillable, or set ${plural ? 'them' : 'it'} on ${plural ? 'their' : 'its'} own (model.${attributes[0]} = ...).`,
      code: 'E_MASS_ASSIGNMENT',
    })
    this.name = 'MassAssignmentError'
  }
}
