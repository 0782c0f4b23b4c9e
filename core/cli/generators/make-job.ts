import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { className } from './names.ts'

/**
 * `kiln make:job ProcessPodcast`: a `Job` class in `app/jobs/` and its test.
 *
 * @example
 * ```sh
 * kiln make:job ProcessPodcast   # await ProcessPodcast.dispatch()
 * ```
 */
export const makeJobCommand = defineGenerator({
  name: 'make:job',
  description: 'Create a queued job class',
  argument: { name: 'name', description: 'The class name, e.g. ProcessPodcast' },
  examples: ['kiln make:job ProcessPodcast'],
  writesTests: true,
  plan({ given, withTest }) {
    const name = className(given, { label: 'job' })
    const file = appFile('app/jobs', name.folders, name.fileName, '.ts')
    const vars = { className: name.className }
    const files: PlannedFile[] = [{ path: file, stub: 'job', vars }]
    if (withTest) {
      const test = appFile('tests/jobs', name.folders, name.fileName, '.test.ts')
      files.push({ path: test, stub: 'job.test', vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => [`Queue it with: await ${files[0]!.vars.className}.dispatch()`],
})
