import { KilnError } from '../../support/errors.ts'

/** Model not found: a 404 when it escapes a handler. */
export class ModelNotFoundError extends KilnError {
  readonly status = 404
  constructor(model: string, key: unknown) {
    super(`No ${model} with key ${String(key)}.`, { code: 'E_MODEL_NOT_FOUND' })
    this.name = 'ModelNotFoundError'
  }
}
