/** The messages between `kiln dev` (which listens) and its server process (which serves): a connection handed over, files that changed, ready for both. */
export type HostMessage = { type: 'kiln-dev:connection' } | { type: 'kiln-dev:change'; files: string[] } | { type: 'kiln-dev:ready' }
