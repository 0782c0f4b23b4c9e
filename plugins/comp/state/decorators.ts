/** The context argument of a standard (TC39) decorator. */
export type Context = { kind: string; name: string | symbol; addInitializer(fn: (this: unknown) => void): void }

/** True for a TC39 (standard) decorator call, whose second argument is a context object. @example `if (isStandard(args)) ...` */
export function isStandard(args: unknown[]): args is [unknown, Context] {
  return typeof args[1] === 'object' && args[1] !== null && 'kind' in (args[1] as object)
}

/**
 * Records a member on its class, for both decorator flavours: TypeScript's
 * `experimentalDecorators` (target, key, descriptor) and the standard one
 * (value, context).
 *
 * @example
 * ```ts
 * export function locked() { return (...args: any[]): any => record(args, (Class, name) => void ownMeta(Class).locked.add(name)) }
 * ```
 */
export function record(args: unknown[], apply: (Class: Function, name: string) => void): void {
  if (isStandard(args)) {
    const context = args[1]
    context.addInitializer(function (this: unknown) {
      const target = this as { constructor: Function }
      apply(typeof this === 'function' ? (this as Function) : target.constructor, String(context.name))
    })
    return
  }
  const [target, key] = args as [{ constructor: Function }, string | symbol]
  apply(target.constructor, String(key))
}
