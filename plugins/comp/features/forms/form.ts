import { FORBIDDEN_KEYS, KilnError } from '../../../../core/index.ts'
import { ValidationStop, type ErrorHolder } from '../../component-run.ts'
import { addRuledValues, checkFields, collectFailedRules, replaceErrors } from '../validation/check-fields.ts'
import { fieldRules } from '../validation/validate-decorator.ts'

/** The fields of a form object as plain values (its methods left out of the type's use). */
export type FormData<F> = Omit<F, keyof Form>

const owners = new WeakMap<Form, { component: ErrorHolder; name: string }>()

/**
 * A group of fields with their rules, kept in one public property of a
 * component (`form = new PostForm()`): the browser binds its fields as
 * `wire:model="form.title"`, an update of a field with a `@validate()` rule
 * checks it, and its messages are keyed `form.title`. Only its declared
 * fields (public, not starting with `_`) can be set from the browser; it
 * keeps its class from one request to the next.
 *
 * Field names passed to its methods are checked by TypeScript:
 * `this.form.reset('titel')` does not compile.
 *
 * @example
 * ```ts
 * class PostForm extends Form {
 *   @validate(z.string().min(3)) title = ''
 *   @validate(z.string().max(500)) body = ''
 * }
 * class CreatePost extends Component {
 *   form = new PostForm()
 *   async save() {
 *     await Post.create(this.form.validate())
 *     this.form.reset()
 *   }
 * }
 * ```
 */
export abstract class Form {
  /**
   * Checks the fields with their `@validate()` rules (all, or the named
   * ones, keeping the other fields' messages): on success returns the
   * values and clears their messages; on failure puts the messages on the
   * component (`form.title`) and stops this request's calls.
   *
   * @example
   * ```ts
   * const { title } = this.form.validate()
   * this.form.validate('title')
   * ```
   */
  validate(...fields: Array<keyof this & string>): FormData<this> {
    const { component, name } = ownerOf(this)
    const names = fields.length > 0 ? fields.map((field) => checkedField(this, field)) : formFields(this)
    const self = this as unknown as Record<string, unknown>
    const { data, errors } = collectFailedRules(component, () => checkFields(self, fieldRules(this.constructor), names, `${name}.`))
    component.errors = replaceErrors(component.errors, fields.length > 0 ? names.map((field) => `${name}.${field}`) : [name], errors)
    if (Object.keys(errors).length > 0) throw new ValidationStop()
    return { ...this.all(), ...data } as FormData<this>
  }

  /** Sets fields back to their initial values (all, or the named ones). @example `this.form.reset('title')` */
  reset(...fields: Array<keyof this & string>): void {
    const fresh = new (this.constructor as new () => Record<string, unknown>)()
    const self = this as unknown as Record<string, unknown>
    for (const field of fields.length > 0 ? fields.map((field) => checkedField(this, field)) : formFields(this)) self[field] = fresh[field]
  }

  /** The fields as plain values. @example `await Post.create(this.form.all())` */
  all(): FormData<this> {
    const self = this as unknown as Record<string, unknown>
    return Object.fromEntries(formFields(this).map((field) => [field, self[field]])) as FormData<this>
  }

  /** Assigns values to the fields of those names (other keys are refused). @example `this.form.fill({ title: post.title })` */
  fill(values: { [K in keyof this]?: unknown }): void {
    const self = this as unknown as Record<string, unknown>
    for (const [field, value] of Object.entries(values)) self[checkedField(this, field)] = value
  }

  /** Adds a message to a field (shown as `form.title`). @example `this.form.addError('title', 'Taken.')` */
  addError(field: keyof this & string, message: string): void {
    const { component, name } = ownerOf(this)
    const key = `${name}.${checkedField(this, field)}`
    component.errors = { ...component.errors, [key]: [...(component.errors[key] ?? []), message] }
  }

  /** Clears the messages of one field, or of the whole form. @example `this.form.resetErrorBag()` */
  resetErrorBag(field?: keyof this & string): void {
    const { component, name } = ownerOf(this)
    component.errors = replaceErrors(component.errors, [field === undefined ? name : `${name}.${checkedField(this, field)}`], {})
  }
}

/**
 * The declared fields of a form: own enumerable values that are not
 * functions and do not start with `_`.
 *
 * @example
 * ```ts
 * formFields(new PostForm()) // ['title', 'body']
 * ```
 */
export function formFields(form: Form): string[] {
  return Object.keys(form).filter((key) => !key.startsWith('_') && typeof (form as unknown as Record<string, unknown>)[key] !== 'function')
}

/**
 * Ties the form objects in a component's public properties to it (their
 * messages go to its `errors`, under the property's name). @internal
 *
 * @example
 * ```ts
 * bindForms(component)
 * ```
 */
export function bindForms(component: ErrorHolder): void {
  const self = component as unknown as Record<string, unknown>
  for (const key of Object.keys(component)) {
    const value = self[key]
    if (value instanceof Form && !key.startsWith('_')) owners.set(value, { component, name: key })
  }
}

/** The component and property a form lives in. */
function ownerOf(form: Form): { component: ErrorHolder; name: string } {
  const owner = owners.get(form)
  if (owner && (owner.component as unknown as Record<string, unknown>)[owner.name] === form) return owner
  throw new KilnError(`This ${form.constructor.name} is not a property of a component yet, so it has nowhere to put its messages.`, {
    code: 'E_COMP_FORM_UNBOUND',
    hint: 'Keep the form in a public property (form = new PostForm()); one made during an action is bound from the next request, or after this.validate().',
  })
}

/** A field name the form declares; anything else is a clear error. */
function checkedField(form: Form, field: string): string {
  if (FORBIDDEN_KEYS.has(field) || !formFields(form).includes(field))
    throw new KilnError(`${form.constructor.name} has no field "${String(field).slice(0, 100)}".`, { code: 'E_COMP_FORM_FIELD' })
  return field
}

/**
 * Lets `validate()` and `validateOnly()` check the form objects of a
 * component (each with its own rules, its messages under the property's
 * name). Forms build on validation; validation knows no form class.
 *
 * @example
 * ```ts
 * installFormRules()
 * ```
 */
export function installFormRules(): void {
  addRuledValues({
    holds: (value) => value instanceof Form,
    bind: bindForms,
    check(value, name) {
      const form = value as Form
      const checked = checkFields(form as unknown as Record<string, unknown>, fieldRules(form.constructor), undefined, `${name}.`)
      return { data: { ...form.all(), ...checked.data }, errors: checked.errors }
    },
    validateOnly(value, field) {
      const form = value as Form
      if (field === undefined) form.validate()
      else if (formFields(form).includes(field) && fieldRules(form.constructor).has(field)) form.validate(field as keyof Form & string)
    },
    fieldRule: (value, field) => fieldRules((value as Form).constructor).get(field),
  })
}
