import { CommandError, defineCommand } from '../define-command.ts'

/**
 * `kiln vendor:publish --tag=<tag> [--force]`: copies files a plugin offers
 * (config, migrations, views) into the app. Without a tag it lists the tags.
 * Never overwrites without `--force`.
 */
export const vendorPublishCommand = defineCommand({
  name: 'vendor:publish',
  description: 'Copy files offered by plugins into the application',
  flags: {
    tag: { type: 'string', description: 'The tag to publish (e.g. tok-config)' },
    force: { type: 'boolean', description: 'Overwrite existing files' },
  },
  examples: ['kiln vendor:publish', 'kiln vendor:publish --tag=tok-config', 'kiln vendor:publish --tag=tok-config --force'],
  run({ app, flags, info, warn }) {
    const publisher = app.service('publisher')
    const tag = flags.tag as string | undefined
    if (!tag) {
      const tags = publisher.tagNames()
      info(tags.length ? `Publishable tags:\n${tags.map((t) => `  ${t}`).join('\n')}` : 'No plugin offers files to publish.')
      return 0
    }
    if (!publisher.entries(tag)) throw new CommandError(`Unknown tag "${tag}". Known tags: ${publisher.tagNames().join(', ') || 'none'}.`)
    const { copied, skipped } = publisher.publish(tag, app.root, { force: Boolean(flags.force) })
    for (const file of copied) info(`Copied ${file}`)
    for (const file of skipped) warn(`Skipped ${file} (exists; use --force to overwrite)`)
    if (copied.length === 0 && skipped.length === 0) info('Nothing to publish.')
    return 0
  },
})
