import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { KilnError } from '../../core/index.ts'
import { Component } from './component.ts'
import { templateSource } from './features/single-file/template-check.ts'

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

  /** `checkTemplates`: parse each class's `static template` as it registers (development), so a broken one fails at boot. */
  constructor(private readonly options: { checkTemplates?: boolean } = {}) {}

  /** Registers a class under a name. @example `registry.register('counter', Counter)` */
  register(name: string, Class: ComponentClass): this {
    if (!NAME.test(name)) throw new KilnError(`"${name}" is not a component name: use kebab-case, with dots for folders (todo-list, admin.user-table).`)
    if (typeof Class !== 'function' || !(Class.prototype instanceof Component))
      throw new KilnError(`The component "${name}" must be a class extending Component.`)
    const existing = this.byName.get(name)
    if (existing && existing !== Class) throw new KilnError(`Two components are named "${name}": ${existing.name} and ${Class.name}.`)
    if (this.options.checkTemplates) templateSource(Class)
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
      if (!Class || !(Class.prototype instanceof Component)) continue
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
