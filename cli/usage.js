// A mistake in how a command was called: `prflow` prints it with the usage and exits with status 2.
export class UsageError extends Error {}
