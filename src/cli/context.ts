// CommandContext: what the router hands every command (environment, streams, usage()).
// Its own module, so the router and the commands never import each other.
export interface CommandContext {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream | (NodeJS.WritableStream & { isTTY?: boolean });
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadStream | (NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => void });
  /** Prints the usage text to stderr and returns exit code 2. */
  usage(text: string): number;
}
