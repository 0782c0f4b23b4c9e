import { defineLoggingConfig } from 'kiln-framework'

/** Logs to stdout and storage/logs/kiln.log; secrets are always redacted. */
export default defineLoggingConfig(({ env }) => ({
  level: env.get('LOG_LEVEL') as 'info' | undefined,
  channels: ['stdout', 'file'] as Array<'stdout' | 'file'>,
  file: { path: 'storage/logs/kiln.log' },
}))
