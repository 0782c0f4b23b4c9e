import type { z } from 'zod'
import type { FeatureProvider } from '../../extension/feature-provider.ts'
import type { Component } from '../../component.ts'
import { validateComponent, validateOnlyComponent, validateOnUpdate } from './component-validation.ts'
import { validationAssertions } from './validation-assertions.ts'

declare module '../../component.ts' {
  interface Component {
    /**
     * Checks the component's rules together: the `@validate()` rules of its
     * properties, `static rules` (a zod schema, on the whole state) and the
     * rules of its form objects (or only `schema`, when given). On success
     * clears the errors and returns the parsed data; on failure fills
     * `this.errors` and stops this request's calls (the component still
     * renders, with the errors).
     *
     * @example
     * ```ts
     * @validate(z.string().min(3)) title = ''
     * async save() {
     *   const { title } = this.validate()
     *   await Todo.create({ title })
     * }
     * ```
     */
    validate<S extends z.ZodType>(schema: S): z.output<S>
    validate(): Record<string, any>

    /**
     * Validates one property with its rule (`@validate()`, else its key of
     * `static rules`), or one field of a form object (`'form.title'`),
     * keeping the other fields' errors. A name that is not a property does
     * not compile.
     *
     * @example
     * ```ts
     * this.validateOnly('title')
     * ```
     */
    validateOnly(field: (keyof this & string) | `${keyof this & string}.${string}`): void
  }
}

/**
 * Validation, besides its hook: `this.validate()` and `this.validateOnly()`
 * on every component, and `@validate({ onUpdate: true })` fields checked
 * after each update from the browser.
 *
 * @example
 * ```ts
 * installFeatures([validationFeature])
 * ```
 */
export const validationFeature: FeatureProvider = {
  name: 'validation',
  assertions: validationAssertions,
  methods: {
    validate(this: Component, schema?: z.ZodType) {
      return validateComponent(this, schema)
    },
    validateOnly(this: Component, field: string) {
      validateOnlyComponent(this, field)
    },
  },
  afterUpdate: validateOnUpdate,
}
