import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { currentApp } from '../../application/current-app.ts'
import { KilnError } from '../../support/errors.ts'
import { snake } from '../model/model-attributes.ts'
import { fake, type Fake } from './fake.ts'

/** Attributes by name. */
export type Attributes = Record<string, unknown>

/** What a factory needs of a model: the narrow shape, so this module stays out of model.ts's import circle. */
export interface FactoryModel {
  forceFill(attributes: Attributes): this
  save(): Promise<boolean>
  getKey(): unknown
}

/** What a factory needs of a model class. */
export interface FactoryModelClass<M extends FactoryModel> {
  new (): M
  readonly name: string
}

/** What a factory's definition receives: the fake data generator and the model's position in this `make()`/`create()` (0, 1...). */
export interface FactoryContext {
  fake: Fake
  index: number
}

/** A state: attributes laid over the definition's, or a function of the attributes so far. */
export type FactoryState = Attributes | ((attributes: Attributes) => Attributes)

/** A model's factory, made by {@link defineFactory}. */
export interface FactoryDefinition<M extends FactoryModel = FactoryModel> {
  model: FactoryModelClass<M>
  definition(context: FactoryContext): Attributes | Promise<Attributes>
  /** Named states for `.state('name')`. */
  states: Record<string, FactoryState>
  /** Runs on every model made or created, before it is saved. */
  afterMaking?(model: M): unknown
  /** Runs on every model created, after it is saved. */
  afterCreating?(model: M): unknown
}

const byClass = new WeakMap<object, FactoryDefinition<any>>()
// A second lookup by class name: an app file imported twice (a dev reload) makes a second class of the same model.
const byName = new Map<string, FactoryDefinition<any>>()

/**
 * Defines the factory of a model: default attributes (with fake data), named
 * states and hooks. A factory lives in `database/factories/<model>-factory.ts`
 * (`kiln make:factory User`), where `User.factory()` finds it by its name.
 *
 * @example
 * ```ts
 * // database/factories/post-factory.ts
 * export default defineFactory(Post, ({ fake }) => ({ title: fake.sentence(), published: true }), {
 *   states: { draft: { published: false } },
 * })
 * ```
 */
export function defineFactory<M extends FactoryModel>(
  model: FactoryModelClass<M>,
  definition: (context: FactoryContext) => Attributes | Promise<Attributes>,
  options: { states?: Record<string, FactoryState>; afterMaking?(model: M): unknown; afterCreating?(model: M): unknown } = {},
): FactoryDefinition<M> {
  const factory: FactoryDefinition<M> = {
    model,
    definition,
    states: options.states ?? {},
    afterMaking: options.afterMaking,
    afterCreating: options.afterCreating,
  }
  byClass.set(model, factory)
  byName.set(model.name, factory)
  return factory
}

/** `BlogPost` → `blog-post`. */
function kebab(name: string): string {
  return snake(name).replace(/_/g, '-')
}

async function definitionOf<M extends FactoryModel>(model: FactoryModelClass<M>): Promise<FactoryDefinition<M>> {
  const known = byClass.get(model) ?? byName.get(model.name)
  if (known) return known
  const base = join(currentApp().root, 'database', 'factories', `${kebab(model.name)}-factory`)
  const file = ['.ts', '.js'].map((extension) => base + extension).find((path) => existsSync(path))
  if (file) await import(pathToFileURL(file).href)
  const found = byClass.get(model) ?? byName.get(model.name)
  if (found) return found
  throw new KilnError(`${model.name} has no factory.`, {
    hint: file
      ? `database/factories/${kebab(model.name)}-factory${file.slice(base.length)} must call defineFactory(${model.name}, ...).`
      : `Create database/factories/${kebab(model.name)}-factory.ts with \`kiln make:factory ${model.name}\`.`,
    code: 'E_NO_FACTORY',
  })
}

interface BuilderState {
  count?: number
  states: Array<string | FactoryState>
  sequence: Attributes[]
  owners: Array<{ foreignKey: string; owner: FactoryModel | FactoryBuilder<any, any> }>
  children: Array<{ foreignKey?: string; factory: FactoryBuilder<any, any> }>
}

/**
 * Makes models from their factory: `User.factory()` gives one. Each method
 * returns a new builder, so a builder can be shared and refined.
 *
 * @example
 * ```ts
 * const users = await User.factory().count(3).create()
 * const admin = await User.factory().state('admin').create({ name: 'Ada' })
 * const post = await Post.factory().for(admin).has(Comment.factory().count(2)).create()
 * const unsaved = await Post.factory().make()
 * ```
 */
export class FactoryBuilder<M extends FactoryModel, Result = M> {
  constructor(
    private readonly model: FactoryModelClass<M>,
    private readonly options: BuilderState = { states: [], sequence: [], owners: [], children: [] },
  ) {}

  private with<R = Result>(change: Partial<BuilderState>): FactoryBuilder<M, R> {
    return new FactoryBuilder<M, R>(this.model, { ...this.options, ...change })
  }

  /** Makes or creates `count` models: `make()` and `create()` then resolve to an array. */
  count(count: number): FactoryBuilder<M, M[]> {
    if (!Number.isInteger(count) || count < 0) throw new KilnError(`A factory count must be a whole number, not ${String(count)}.`, { code: 'E_FACTORY' })
    return this.with<M[]>({ count })
  }

  /** A named state of the factory (`'unverified'`), or attributes (or a function of them) laid over the definition's. */
  state(state: string | FactoryState): FactoryBuilder<M, Result> {
    return this.with({ states: [...this.options.states, state] })
  }

  /** Attributes taken in turn: the first model gets the first, the second the second, and round again. */
  sequence(...items: Attributes[]): FactoryBuilder<M, Result> {
    return this.with({ sequence: items })
  }

  /**
   * The owner of the models (a belongs-to relation): sets `foreignKey`
   * (default `<owner>_id`, `user_id` for a `User`). Given a factory, one
   * owner is created and shared by every model.
   */
  for(owner: FactoryModel | FactoryBuilder<any, any>, foreignKey?: string): FactoryBuilder<M, Result> {
    const ownerName = owner instanceof FactoryBuilder ? owner.model.name : owner.constructor.name
    return this.with({ owners: [...this.options.owners, { foreignKey: foreignKey ?? `${snake(ownerName)}_id`, owner }] })
  }

  /**
   * Children created with each model (a has-many relation): their
   * `foreignKey` (default `<model>_id`, `user_id` under a `User`) is set to
   * the new model's key. Only `create()` makes them.
   */
  has(children: FactoryBuilder<any, any>, foreignKey?: string): FactoryBuilder<M, Result> {
    return this.with({ children: [...this.options.children, { foreignKey, factory: children }] })
  }

  /** The attributes of one model, made but neither built nor saved. */
  async raw(overrides: Attributes = {}): Promise<Attributes> {
    return this.attributes(await definitionOf(this.model), 0, await this.ownerKeys(), overrides)
  }

  /** Models that are not saved (owners given as factories are created, for their keys). */
  async make(overrides: Attributes = {}): Promise<Result> {
    const definition = await definitionOf(this.model)
    const owners = await this.ownerKeys()
    const models: M[] = []
    for (let index = 0; index < (this.options.count ?? 1); index++) models.push(await this.build(definition, index, owners, overrides))
    return (this.options.count === undefined ? models[0] : models) as Result
  }

  /** Models saved to the database, with their children (`has`). `overrides` win over every state. */
  async create(overrides: Attributes = {}): Promise<Result> {
    const definition = await definitionOf(this.model)
    const owners = await this.ownerKeys()
    const models: M[] = []
    for (let index = 0; index < (this.options.count ?? 1); index++) {
      const model = await this.build(definition, index, owners, overrides)
      await model.save()
      await definition.afterCreating?.(model)
      for (const { foreignKey, factory } of this.options.children)
        await factory.state({ [foreignKey ?? `${snake(this.model.name)}_id`]: model.getKey() }).create()
      models.push(model)
    }
    return (this.options.count === undefined ? models[0] : models) as Result
  }

  private async build(definition: FactoryDefinition<M>, index: number, owners: Attributes, overrides: Attributes): Promise<M> {
    const model = new this.model().forceFill(await this.attributes(definition, index, owners, overrides))
    await definition.afterMaking?.(model)
    return model
  }

  private async attributes(definition: FactoryDefinition<M>, index: number, owners: Attributes, overrides: Attributes): Promise<Attributes> {
    let attributes: Attributes = { ...(await definition.definition({ fake, index })) }
    for (const state of this.options.states) attributes = { ...attributes, ...this.resolveState(definition, state, attributes) }
    const { sequence } = this.options
    if (sequence.length > 0) attributes = { ...attributes, ...sequence[index % sequence.length] }
    return { ...attributes, ...owners, ...overrides }
  }

  private resolveState(definition: FactoryDefinition<M>, state: string | FactoryState, attributes: Attributes): Attributes {
    if (typeof state === 'string') {
      if (!Object.prototype.hasOwnProperty.call(definition.states, state)) {
        const known = Object.keys(definition.states)
        throw new KilnError(`The ${this.model.name} factory has no state "${state}".`, {
          hint: known.length ? `Its states: ${known.join(', ')}.` : 'It defines none (defineFactory(..., { states: { ... } })).',
          code: 'E_FACTORY_STATE',
        })
      }
      return this.resolveState(definition, definition.states[state]!, attributes)
    }
    return typeof state === 'function' ? state(attributes) : state
  }

  private async ownerKeys(): Promise<Attributes> {
    const keys: Attributes = {}
    for (const { foreignKey, owner } of this.options.owners) {
      const created = owner instanceof FactoryBuilder ? ((await owner.create()) as FactoryModel | FactoryModel[]) : owner
      keys[foreignKey] = (Array.isArray(created) ? created[0]! : created).getKey()
    }
    return keys
  }
}
