import type { CommandDefinition } from '../define-command.ts'
import { keyGenerateCommand } from './key-generate.ts'
import { newCommand } from './new-app.ts'
import { routeListCommand } from './route-list.ts'
import { serveCommand } from './serve.ts'
import { vendorPublishCommand } from './vendor-publish.ts'

/** The kernel's own commands. */
export const coreCommands: CommandDefinition[] = [serveCommand, keyGenerateCommand, routeListCommand, vendorPublishCommand, newCommand]
