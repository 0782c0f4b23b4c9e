import type { CommandDefinition } from '../define-command.ts'
import { generatorCommands } from '../generators/index.ts'
import { buildCommand } from './build-app.ts'
import { devCommand } from './dev.ts'
import { keyGenerateCommand } from './key-generate.ts'
import { newCommand } from './new-app.ts'
import { routeListCommand } from './route-list.ts'
import { serveCommand } from './serve.ts'
import { vendorPublishCommand } from './vendor-publish.ts'

/** The kernel's own commands. */
export const coreCommands: CommandDefinition[] = [
  serveCommand,
  keyGenerateCommand,
  routeListCommand,
  vendorPublishCommand,
  newCommand,
  devCommand,
  buildCommand,
  ...generatorCommands,
]
