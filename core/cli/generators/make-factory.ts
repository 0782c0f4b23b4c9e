import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError } from '../define-command.ts'
import { appFile, defineGenerator, importPath } from './define-generator.ts'
import { className, kebabCase } from './names.ts'

/**
 * `kiln make:factory User`: `database/factories/user-factory.ts`, the
 * factory `User.factory()` finds by that name, for the model in
 * `app/models/user.ts` (`UserFactory` names the same factory).
 *
 * @example
 * ```sh
 * kiln make:factory BlogPost   # database/factories/blog-post-factory.ts, for app/models/blog-post.ts
 * ```
 */
export const makeFactoryCommand = defineGenerator({
  name: 'make:factory',
  description: 'Create a model factory (fake rows for seeders and tests)',
  argument: { name: 'model', description: 'The model class: User, BlogPost, Admin/Report' },
  examples: ['kiln make:factory User', 'kiln make:factory BlogPost'],
  plan({ root, given }) {
    const name = className(given, { suffix: 'Factory', label: 'model' })
    const model = name.baseName
    const modelFile = appFile('app/models', name.folders, kebabCase(model), '.ts')
    if (!existsSync(join(root, modelFile)))
      throw new CommandError(`No model ${model} in ${modelFile}: create it first with kiln make:model ${given.replace(/Factory$/, '')}.`)
    // Found by the model's name alone (User.factory() looks for database/factories/user-factory.ts), so no sub-folders here.
    const file = `database/factories/${kebabCase(model)}-factory.ts`
    return [{ path: file, stub: 'factory', vars: { className: model, importPath: importPath(file, modelFile) } }]
  },
  next: (_files, { given }) => {
    const model = className(given, { suffix: 'Factory', label: 'model' }).baseName
    return [`Use it: await ${model}.factory().count(3).create()`]
  },
})
