import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError } from '../define-command.ts'
import { appFile, defineGenerator, importPath } from './define-generator.ts'
import { className, indefiniteArticle, kebabCase } from './names.ts'

/**
 * `kiln make:policy Post`: `app/policies/post-policy.ts`, the policy the
 * gate finds for the model in `app/models/post.ts` (`PostPolicy` names the
 * same policy).
 *
 * @example
 * ```sh
 * kiln make:policy Post   # app/policies/post-policy.ts: view, create, update, delete
 * ```
 */
export const makePolicyCommand = defineGenerator({
  name: 'make:policy',
  description: 'Create an authorization policy for a model',
  argument: { name: 'model', description: 'The model class: Post, BlogPost (Policy is added)' },
  examples: ['kiln make:policy Post', 'kiln make:policy BlogPostPolicy'],
  plan({ root, given }) {
    const name = className(given, { suffix: 'Policy', label: 'model' })
    const model = name.baseName
    const modelFile = appFile('app/models', name.folders, kebabCase(model), '.ts')
    if (!existsSync(join(root, modelFile)))
      throw new CommandError(`No model ${model} in ${modelFile}: create it first with kiln make:model ${given.replace(/Policy$/, '')}.`)
    // Found by the model's class name alone (app/policies/<model>-policy.ts), so no sub-folders here.
    const file = `app/policies/${kebabCase(model)}-policy.ts`
    const userFile = 'app/models/user.ts'
    const hasUser = model !== 'User' && existsSync(join(root, userFile))
    const vars = {
      className: name.className,
      fileName: `${kebabCase(model)}-policy`,
      modelName: model,
      modelArticle: indefiniteArticle(model),
      modelVar: model === 'User' ? 'other' : model[0]!.toLowerCase() + model.slice(1),
      modelImport: importPath(file, modelFile),
      userImport: hasUser ? `import type { User } from '${importPath(file, userFile)}'\n` : '',
      userType: model === 'User' ? 'User' : hasUser ? 'User' : 'object',
    }
    return [{ path: file, stub: 'policy', vars }]
  },
  next: (files) => [`Use it: await ctx.authorize('update', ${files[0]!.vars.modelVar})`],
})
