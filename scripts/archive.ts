/**
 * The archive CLI: `npm run --silent archive -- pull --venue kalshi --from 2026-11-20 --to 2026-11-21 --dir out/`.
 * Downloads every hour file of the days from the API (BRIER_URL, key in BRIER_API_KEY or --key),
 * resumes partial downloads and verifies every file against the manifest. `verify` only checks.
 * Progress on stderr, one line per file on stdout; exit 1 on any mismatch, 2 on a usage error.
 */
import { parseArgs } from "node:util";
import { config } from "@/lib/config";
import { PullError, pullArchive, type PullProgress } from "@/lib/archive/pull";
import { out, say, UsageError } from "./lib/cli";

const usage = `usage: npm run --silent archive -- pull|verify --venue <polymarket|kalshi> --from YYYY-MM-DD --to YYYY-MM-DD --dir <dir> [--url <api>] [--key <api key>]`;

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** `[#####-----] 3/24 files  12.0/40.5 MB`, redrawn in place on a TTY, a line per file otherwise. */
function progressLine(stream: NodeJS.WriteStream): (p: PullProgress) => void {
  let lastFiles = -1;
  return (p) => {
    const width = 24;
    const ratio = p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 1;
    const bar = `[${"#".repeat(Math.round(ratio * width))}${"-".repeat(width - Math.round(ratio * width))}]`;
    const text = `${bar} ${p.filesDone}/${p.filesTotal} files  ${megabytes(p.bytesDone)}/${megabytes(p.bytesTotal)}`;
    if (stream.isTTY) stream.write(`\r\u001b[2K${text}`);
    else if (p.filesDone !== lastFiles) {
      lastFiles = p.filesDone;
      stream.write(`${text}\n`);
    }
  };
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      venue: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      dir: { type: "string" },
      url: { type: "string" },
      key: { type: "string" },
    },
  });
  const [command] = positionals;
  if (command !== "pull" && command !== "verify") throw new UsageError(usage);
  const need = (name: "venue" | "from" | "to" | "dir") => {
    const value = values[name];
    if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required\n${usage}`);
    return value;
  };
  const apiKey = values.key ?? config.archiveClient.apiKey;
  if (apiKey === undefined) throw new UsageError(`an API key is required: --key or BRIER_API_KEY\n${usage}`);
  const result = await pullArchive({
    baseUrl: values.url ?? config.archiveClient.url,
    apiKey,
    venue: need("venue"),
    from: need("from"),
    to: need("to"),
    dir: need("dir"),
    verifyOnly: command === "verify",
    onProgress: progressLine(process.stderr),
  });
  if (process.stderr.isTTY) process.stderr.write("\n");
  for (const file of result.files) out(`${file.outcome}\t${file.path}${file.problem === undefined ? "" : `\t${file.problem}`}`);
  say(`${result.files.length} files, ${result.mismatches} not matching the manifest`);
  return result.mismatches === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof PullError) {
      say(error.message);
      process.exit(error instanceof UsageError ? 2 : 1);
    }
    say(`archive failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
