/** A command line the CLI cannot run as given: exit 2 with the command's usage. */
export class UsageError extends Error {
  override name = "UsageError";
}
