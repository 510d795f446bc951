/** Small helpers for the command-line entry points: messages on stderr, results on stdout. */

export class UsageError extends Error {
  override name = "UsageError";
}

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

/**
 * A one-line progress bar on stderr (only on a terminal; elsewhere one line per 10% step, so logs
 * stay readable).
 */
export function progressBar(label: string): { update: (done: number, total?: number, note?: string) => void; done: (note: string) => void } {
  const tty = process.stderr.isTTY === true;
  let lastStep = -1;
  return {
    update(done, total, note = "") {
      if (tty) {
        const width = 30;
        const bar =
          total !== undefined && total > 0
            ? `[${"#".repeat(Math.round((done / total) * width)).padEnd(width, ".")}] ${done}/${total}`
            : `${done}`;
        process.stderr.write(`\r\x1b[2K${label} ${bar} ${note}`);
        return;
      }
      const step = total !== undefined && total > 0 ? Math.floor((done / total) * 10) : Math.floor(done / 1000);
      if (step !== lastStep) {
        lastStep = step;
        say(`${label} ${total !== undefined ? `${done}/${total}` : done} ${note}`.trimEnd());
      }
    },
    done(note) {
      if (tty) process.stderr.write(`\r\x1b[2K`);
      say(`${label} ${note}`);
    },
  };
}
