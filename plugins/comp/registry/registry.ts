import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { KilnError } from '../../../core/index.ts'
import { COMPONENT_MARK, Component } from '../component.ts'

/** A component class. */
export type ComponentClass = (new () => Component) & typeof Component

const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)*$/

/**
 * The app's components by name. Names are kebab-case, dotted for folders:
 * `app/components/todo-list.ts` is `todo-list`, `app/components/admin/user-table.ts`
 * is `admin.user-table`. Components are discovered from `comp.path` at
 * boot, or registered explicitly.
 *
 * @example
 * ```ts
 * registry.register('counter', Counter)
 * registry.get('counter') // Counter
 * ```
 */
export class ComponentRegistry {
  private readonly byName = new Map<string, ComponentClass>()
  private readonly names = new Map<Function, string>()
  private readonly checks: Array<(Class: ComponentClass) => void> = []

  /**
   * Checks each class as it registers, before it is listed (throw to
   * refuse it): in development, single-file components parse their
   * `static template` here, so a broken one fails at boot.
   *
   * @example
   * ```ts
   * registry.check((Class) => templateSource(Class))
   * ```
   */
  check(check: (Class: ComponentClass) => void): this {
    this.checks.push(check)
    return this
  }

  /** Registers a class under a name. @example `registry.register('counter', Counter)` */
  register(name: string, Class: ComponentClass): this {
    if (!NAME.test(name))
      throw new KilnError(`"${name}" is not a component name: use kebab-case, with dots for folders (todo-list, admin.user-table).`, { code: 'E_COMP_NAME' })
    if (typeof Class !== 'function' || !(Class.prototype instanceof Component))
      throw new KilnError(`The component "${name}" must be a class extending Component.`, { code: 'E_COMP_NOT_A_COMPONENT' })
    const existing = this.byName.get(name)
    if (existing && existing !== Class)
      throw new KilnError(`Two components are named "${name}": ${existing.name} and ${Class.name}.`, { code: 'E_COMP_DUPLICATE_NAME' })
    for (const check of this.checks) check(Class)
    this.byName.set(name, Class)
    this.names.set(Class, name)
    return this
  }

  /** The class of a name, or undefined. @example `registry.get('counter')` */
  get(name: string): ComponentClass | undefined {
    return this.byName.get(name)
  }

  /** The name of a class; an unregistered class gets its kebab-cased class name, registered on the spot. @example `registry.nameOf(Counter) // 'counter'` */
  nameOf(Class: ComponentClass): string {
    const known = this.names.get(Class)
    if (known) return known
    const name = kebab(Class.name.replace(/Component$/, '')) || 'component'
    this.register(name, Class)
    return name
  }

  /** Every registered name. @example `registry.all()` */
  all(): string[] {
    return [...this.byName.keys()].sort()
  }

  /**
   * Imports every module under `dir` and registers its default export (or
   * its one exported Component class) under the name its path gives;
   * `onRegistered` hears of each, with its file.
   *
   * @example
   * ```ts
   * await registry.discover('/srv/app/app/components')
   * ```
   */
  async discover(dir: string, onRegistered?: (name: string, Class: ComponentClass, file: string) => void): Promise<number> {
    if (!existsSync(dir)) return 0
    let count = 0
    for (const file of modules(dir)) {
      const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>
      const classes = Object.values(exported).filter((value): value is ComponentClass => typeof value === 'function' && value.prototype instanceof Component)
      const Class = (exported.default as ComponentClass | undefined) ?? (classes.length === 1 ? classes[0] : undefined)
      if (!Class || !(Class.prototype instanceof Component)) {
        // A module with no component (a helper beside them) is skipped; one whose class extends the Component of
        // another installed copy of Kiln would be skipped too, and then be "unknown" on every page: say so at boot.
        const foreign = Object.values(exported).find(isOtherCopysComponent)
        if (foreign) throw otherCopyError(foreign, relative(dir, file))
        continue
      }
      const name = relative(dir, file)
        .replace(/\\/g, '/')
        .replace(/\.(ts|js|mjs)$/, '')
        .split('/')
        .map(kebab)
        .join('.')
      this.register(name, Class)
      onRegistered?.(name, Class, file)
      count++
    }
    return count
  }
}

// This copy's Component itself carries the mark too (a helper module may re-export it): only other copies' count.
function isOtherCopysComponent(value: unknown): value is Function {
  return (
    typeof value === 'function' &&
    value !== Component &&
    (value as unknown as Record<symbol, unknown>)[COMPONENT_MARK] === true &&
    !(value.prototype instanceof Component)
  )
}

function otherCopyError(Class: Function, file: string): KilnError {
  return new KilnError(`${file}: ${Class.name} extends the Component of another installed copy of kiln-framework, so it cannot be registered as a component.`, {
    code: 'E_COMP_OTHER_COPY',
    hint: 'Install one copy: `npm ls kiln-framework` shows where each comes from; `npm dedupe` or one version in every package.json joins them.',
  })
}

/**
 * `TodoList` → `todo-list`, `todo_list` → `todo-list`.
 *
 * @example
 * ```ts
 * kebab('UserTable') // 'user-table'
 * ```
 */
export function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase()
}

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return modules(path)
    return /\.(ts|js|mjs)$/.test(entry) && !/\.(test|d)\.(ts|js)$/.test(entry) ? [path] : []
  })
}
