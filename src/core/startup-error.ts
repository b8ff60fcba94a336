// A start that cannot go on (port taken, forced real mode without termux-sms-send, a
// database that cannot be opened): the CLI prints its message as one line and exits 1.
export class StartupError extends Error {
  override name = 'StartupError';
}
