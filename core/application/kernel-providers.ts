import type { Plugin } from './define-plugin.ts'
import { httpProvider } from '../http/http-provider.ts'

/**
 * The kernel's own providers, in the order they register and boot, before any
 * plugin. Each is a plugin-shaped object living in its own core folder.
 */
export const kernelProviders: Plugin[] = [httpProvider]
