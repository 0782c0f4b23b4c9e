import { KilnError } from '../../../../core/index.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'
import { bindForms, Form, formFields } from './form.ts'

const formClasses = new WeakMap<Function, Map<string, (new () => Form) | undefined>>()

/**
 * Form objects: on a first render they are tied to their component after
 * `mount()`; on an update each comes back as an instance of its class (the
 * snapshot holds only its fields, marked `{ t: 'form' }`; the class is the
 * one the component's property starts with), before the component's own
 * `hydrate()` runs.
 *
 * @example
 * ```ts
 * const features = [validation, forms, ...]
 * ```
 */
export const forms: ComponentHook = {
  name: 'forms',
  mounted(c) {
    bindForms(c.component)
  },
  hydrate(c, memo) {
    const self = c.component as unknown as Record<string, unknown>
    for (const [path, type] of memo.types ?? []) {
      if (type.t !== 'form' || path.length !== 1) continue
      const name = String(path[0])
      const FormClass = formClassOf(c.Class, name)
      const data = self[name]
      if (!FormClass || data === null || typeof data !== 'object')
        throw new KilnError(`${c.Class.name}.${name} held a form object, but the property no longer starts as one.`, {
          code: 'E_COMP_FORM_UNBOUND',
          hint: `Give the property its form as initial value: ${name} = new MyForm().`,
        })
      const form = new FormClass()
      const fields = form as unknown as Record<string, unknown>
      for (const field of formFields(form)) if (Object.prototype.hasOwnProperty.call(data, field)) fields[field] = (data as Record<string, unknown>)[field]
      self[name] = form
    }
    bindForms(c.component)
  },
}

/** The form class a component's property starts with (from a fresh instance, once per class). */
function formClassOf(Class: Function, name: string): (new () => Form) | undefined {
  let classes = formClasses.get(Class)
  if (!classes) formClasses.set(Class, (classes = new Map()))
  if (!classes.has(name)) {
    const value = (new (Class as new () => Record<string, unknown>)() as Record<string, unknown>)[name]
    classes.set(name, value instanceof Form ? (value.constructor as new () => Form) : undefined)
  }
  return classes.get(name)
}
