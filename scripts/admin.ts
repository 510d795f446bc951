/**
 * Brier's admin CLI: `npm run --silent admin -- <command> [options]` (README, "Admin CLI").
 * Messages go to stderr, results to stdout; exit 2 on a usage error, 1 on a failure.
 *
 * Where a command runs: when a server holds this DATA_DIR's embedded stores, the command goes to
 * that server over its admin channel (lib/operator/channel.ts) and runs there, so the CLI works
 * while the service runs; otherwise it runs here, opening the stores itself.
 */
import { config } from "@/lib/config";
import { closeDatabase } from "@/lib/db";
import { readChannel, sendAdminCommand } from "@/lib/operator/channel-client";
import { isAdminCommand, runAdminCommand } from "@/lib/operator/commands";
import { closeTickStores } from "@/lib/ticks";
import { progressBar } from "./lib/progress";
import { out, readStdin, say } from "./lib/cli";

/** set-password reads its password from stdin, here, and sends it with the command. */
const readsInput = (argv: readonly string[]) => argv[0] === "set-password" && !argv.includes("--generate");

async function main(argv: string[]): Promise<number> {
  const channel = config.embeddedPostgres || config.embeddedClickhouse ? readChannel(config.dataDir) : undefined;
  if (channel !== undefined && isAdminCommand(argv[0])) {
    const input = readsInput(argv) ? await readStdin() : "";
    say(`(sent to the running server, process ${channel.pid})`);
    const code = await sendAdminCommand(channel, argv, input, { say, out });
    if (code !== undefined) return code;
    say("The server's admin channel did not answer; running the command here.");
  }
  const progress = progressBar();
  try {
    return await runAdminCommand(argv, { say, out, readInput: readStdin, onIngestProgress: progress.onProgress });
  } finally {
    progress.finish();
    await closeDatabase().catch(() => undefined);
    await closeTickStores().catch(() => undefined);
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
