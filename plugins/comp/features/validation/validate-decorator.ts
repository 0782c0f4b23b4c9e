import { z } from 'zod'
import { FORBIDDEN_KEYS, KilnError } from '../../../../core/index.ts'
import { record } from '../../state/decorators.ts'

/** How a property's rule reports: its messages, the name it goes by in them, and when it runs. */
export interface ValidateOptions {
  /**
   * The message for every failure of this rule, or one per zod issue code
   * (`too_small`, `too_big`, `invalid_type`, `invalid_format`,
   * `invalid_value`, `custom`…). `:attribute` stands for the field's name.
   */
  message?: string | Partial<Record<string, string>>
  /** The field's name in messages (`:attribute`): default, its property name in words (`firstName` → `first name`). */
  as?: string
  /** Check the property when the browser updates it (default true); false leaves it to `validate()`. */
  onUpdate?: boolean
}

/** One property's rule, as `@validate()` recorded it. @internal */
export interface FieldRule extends Required<Pick<ValidateOptions, 'onUpdate'>> {
  schema: z.ZodType
  message?: ValidateOptions['message']
  as?: string
}

/**
 * A property decorator whose schema's output fits the property's type:
 * `@validate(z.number())` on a `string` field does not compile.
 */
export type ValidateDecorator<S extends z.ZodType> = <K extends string, T extends Record<K, unknown>>(
  target: T & (z.output<S> extends T[K] ? unknown : { [P in K]: z.output<S> }),
  key: K,
) => void

const own = new WeakMap<Function, Map<string, FieldRule>>()
const merged = new WeakMap<Function, ReadonlyMap<string, FieldRule>>()
const schemas = new WeakMap<Function, z.ZodObject | null>()

/**
 * Puts a zod rule on a property of a component or a form object: the
 * property is checked when the browser updates it (its messages go to
 * `errors`, keyed by its name; the value is set either way), and by
 * `validate()`. The component's schema is made from these rules, so a
 * field's name is written once.
 *
 * @example
 * ```ts
 * class CreatePost extends Component {
 *   @validate(z.string().min(3)) title = ''
 *   @validate(z.string().email(), { message: 'That is not an email address.', as: 'email address' }) email = ''
 *   @validate(z.string().max(500), { onUpdate: false }) body = ''
 * }
 * ```
 */
export function validate<S extends z.ZodType>(schema: S, options: ValidateOptions = {}): ValidateDecorator<S> {
  if (!(schema instanceof z.ZodType)) throw new KilnError('@validate() takes a zod schema, for example @validate(z.string().min(3)).', { code: 'E_COMP_RULE' })
  const rule: FieldRule = { schema, message: options.message, as: options.as, onUpdate: options.onUpdate !== false }
  const decorator = (...args: unknown[]): void => {
    record(args, (Class, name) => {
      if (FORBIDDEN_KEYS.has(name)) throw new KilnError(`@validate() cannot be put on "${name}".`, { code: 'E_COMP_RULE' })
      let rules = own.get(Class)
      if (!rules) own.set(Class, (rules = new Map()))
      rules.set(name, rule)
    })
  }
  return decorator as ValidateDecorator<S>
}

/**
 * The `@validate()` rules of a class and its parents (a child's rule for a
 * property wins). @internal
 *
 * @example
 * ```ts
 * fieldRules(CreatePost).get('title')?.schema
 * ```
 */
export function fieldRules(Class: Function): ReadonlyMap<string, FieldRule> {
  const cached = merged.get(Class)
  if (cached) return cached
  const chain: Function[] = []
  for (let current: Function | null = Class; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) chain.unshift(current)
  const rules = new Map<string, FieldRule>()
  for (const Current of chain) for (const [name, rule] of own.get(Current) ?? []) rules.set(name, rule)
  merged.set(Class, rules)
  return rules
}

/**
 * The zod object schema made from a class's `@validate()` rules, or null
 * when it has none: what `validate()` checks the decorated fields with.
 *
 * @example
 * ```ts
 * rulesSchema(CreatePost)?.shape.title // z.string().min(3)
 * ```
 */
export function rulesSchema(Class: Function): z.ZodObject | null {
  if (schemas.has(Class)) return schemas.get(Class)!
  const rules = fieldRules(Class)
  const schema = rules.size === 0 ? null : z.object(Object.fromEntries([...rules].map(([name, rule]) => [name, rule.schema])))
  schemas.set(Class, schema)
  return schema
}
