import type { FeatureProvider } from '../../extension/feature-provider.ts'
import { bindForms, Form, formFields, installFormRules } from './form.ts'

/**
 * Form objects, besides their hook: a form in a public property travels in
 * the snapshot as its fields (`{ t: 'form' }`), the browser sets its
 * declared fields one by one (`form.title`), `reset()` ties fresh forms to
 * the component, and `validate()` checks their rules (forms build on
 * validation, never the other way round).
 *
 * @example
 * ```ts
 * installFeatures([formsFeature])
 * ```
 */
export const formsFeature: FeatureProvider = {
  name: 'forms',
  stateTypes: [
    {
      t: 'form',
      holds: (value) => value instanceof Form,
      dehydrate(value, path, types, inner, fail) {
        const form = value as Form
        if (path.length !== 1) throw fail(`a ${form.constructor.name} form object below another value (keep form objects in properties of their own)`)
        types.push([path, { t: 'form' }])
        const fields = form as unknown as Record<string, unknown>
        return Object.fromEntries(formFields(form).map((key) => [key, inner(fields[key], [...path, key])]))
      },
      fields: (value) => ({ names: formFields(value as Form), declaredBy: (value as Form).constructor }),
    },
  ],
  afterReset: bindForms,
  install: installFormRules,
}
