/** Small helpers for the command-line entry points: messages on stderr, results on stdout. */

export { UsageError } from "@/lib/operator/usage-error";

export const say = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

export const out = (result: string): void => {
  process.stdout.write(`${result}\n`);
};

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) say("Reading from standard input (end with Ctrl-D)…");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
