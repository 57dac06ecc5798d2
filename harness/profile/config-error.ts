/** A problem with the tool's own input (flags, files, profiles): reported as one line, exit code 2. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly exitCode = 2;
}
