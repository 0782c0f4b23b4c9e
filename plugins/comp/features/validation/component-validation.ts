import type { z } from 'zod'
import { KilnError } from '../../../../core/index.ts'
import { ValidationStop, type ErrorHolder } from '../../component-run.ts'
import { checkFields, replaceErrors, ruledValues } from './check-fields.ts'
import { componentRules } from './kind-rules.ts'
import { collectFailedRules, noteFailedRule } from './failed-rules.ts'

type Rules = { rules?: z.ZodType }

const ruledOf = (value: unknown) => ruledValues().find((values) => values.holds(value))
const bindRuled = (component: ErrorHolder) => ruledValues().forEach((values) => values.bind(component))

/**
 * `this.validate()`: with a schema, the public state against it; without,
 * every rule the component has, together: `static rules` (on the whole
 * state), the `@validate()` rules of its properties and the rules of their
 * declarations (`@upload()`, see `componentRules`), and those of its form
 * objects (messages keyed `form.title`). On success the messages are
 * cleared and the parsed values returned; on failure they are set and the
 * request's calls stop. @internal
 *
 * @example
 * ```ts
 * validateComponent(component) // { title: 'Buy milk', form: { body: '...' } }
 * ```
 */
export function validateComponent(component: ErrorHolder, schema?: z.ZodType): Record<string, unknown> {
  return collectFailedRules(component, () => validateAll(component, schema))
}

function validateAll(component: ErrorHolder, schema?: z.ZodType): Record<string, unknown> {
  const Class = component.constructor as Function & Rules
  const self = component as unknown as Record<string, unknown>
  bindRuled(component)
  const forms = Object.keys(component).filter((key) => !key.startsWith('_') && ruledOf(self[key]))
  const rules = schema ?? Class.rules
  if (!rules && componentRules(Class).size === 0 && forms.length === 0)
    throw new KilnError(
      `${Class.name}.validate() needs rules: @validate() or @upload() on properties, static rules (a zod schema), a form object, or a schema argument.`,
      {
        code: 'E_COMP_NO_RULES',
      },
    )
  let data: Record<string, unknown> = {}
  let errors: Record<string, string[]> = {}
  if (rules) {
    const result = rules.safeParse(component.state(), { reportInput: true })
    if (result.success) data = { ...(result.data as Record<string, unknown>) }
    else
      for (const issue of result.error.issues) {
        const path = issue.path.join('.') || '_'
        ;(errors[path] ??= []).push(issue.message)
        noteFailedRule(path, issue.message, issue)
      }
  }
  if (!schema) {
    const fields = checkFields(self, componentRules(Class))
    data = { ...data, ...fields.data }
    errors = merge(errors, fields.errors)
    for (const name of forms) {
      const checked = ruledOf(self[name])!.check(self[name], name)
      data[name] = checked.data
      errors = merge(errors, checked.errors)
    }
  }
  component.errors = errors
  if (Object.keys(errors).length > 0) throw new ValidationStop()
  return data
}

/**
 * `this.validateOnly(path)`: one property with its rule (`@validate()`, else
 * its key of `static rules`), or one field of a form object (`form.title`),
 * keeping the other fields' messages. Stops the request's calls when it
 * fails. @internal
 *
 * @example
 * ```ts
 * validateOnlyComponent(component, 'form.title')
 * ```
 */
export function validateOnlyComponent(component: ErrorHolder, path: string): void {
  collectFailedRules(component, () => validateOne(component, path))
}

function validateOne(component: ErrorHolder, path: string): void {
  const self = component as unknown as Record<string, unknown>
  const [root = '', field] = path.split('.')
  const value = Object.prototype.hasOwnProperty.call(component, root) ? self[root] : undefined
  const values = ruledOf(value)
  if (values) {
    bindRuled(component)
    values.validateOnly(value, field)
    return
  }
  const Class = component.constructor as Function & Rules
  const rule = componentRules(Class).has(root) ? undefined : (Class.rules as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.[root]
  let errors: Record<string, string[]> = {}
  if (rule) {
    const result = rule.safeParse(value, { reportInput: true })
    if (!result.success)
      for (const issue of result.error.issues) {
        const at = [root, ...issue.path].join('.')
        ;(errors[at] ??= []).push(issue.message)
        noteFailedRule(at, issue.message, issue)
      }
  } else if (componentRules(Class).has(root)) errors = checkFields(self, componentRules(Class), [root]).errors
  else return
  component.errors = replaceErrors(component.errors, [root], errors)
  if (Object.keys(errors).length > 0) throw new ValidationStop()
}

/**
 * After the browser updated `path`: checks it when its property (or its
 * form object's field) has a `@validate()` rule that runs on update. The
 * value stays set and the request goes on, as a failed check here only
 * reports (Livewire's `#[Validate]` does the same). @internal
 *
 * @example
 * ```ts
 * validateOnUpdate(component, 'form.title')
 * ```
 */
export function validateOnUpdate(component: ErrorHolder, path: string): void {
  const self = component as unknown as Record<string, unknown>
  const [root = '', field] = path.split('.')
  const value = self[root]
  const values = ruledOf(value)
  const rule = values ? (field === undefined ? undefined : values.fieldRule(value, field)) : componentRules(component.constructor).get(root)
  if (!rule?.onUpdate) return
  try {
    validateOnlyComponent(component, values ? `${root}.${field}` : root)
  } catch (error) {
    if (!(error instanceof ValidationStop)) throw error
  }
}

function merge(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const out = { ...a }
  for (const [key, messages] of Object.entries(b)) out[key] = [...new Set([...(out[key] ?? []), ...messages])]
  return out
}
