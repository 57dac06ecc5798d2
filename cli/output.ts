/**
 * Writes to stdout and waits until it is handed to the OS: bin/conformance.js calls process.exit()
 * right after the command, which would cut a long answer written to a pipe (e.g. `openapi | jq`).
 */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}
