import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { errorFields, log } from "@/lib/log";
import { CHANNEL_FILE, readChannel, type ChannelInfo } from "./channel-client";
import { runAdminCommand, type AdminIo } from "./commands";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * The admin channel (docs/architecture.md, "Operating the embedded stores while the server runs"):
 * an embedded data dir belongs to one process, so while the server holds it the admin CLI sends
 * its command line to the server, which runs it with the same code (./commands.ts) and streams the
 * command's messages and results back.
 *
 * - Local only: a TCP listener on 127.0.0.1 and an ephemeral port, never another interface.
 * - Authenticated: a 256-bit token the server draws at start and writes, with the port and its
 *   pid, to `DATA_DIR/.admin-channel` (mode 0600, in the data dir only the service's user reads).
 *   Whoever can read that file can already open the stores themselves once the server stops, so
 *   the channel grants nothing the file system does not; a request without the token is dropped.
 * - One command at a time, in arrival order (two `demo-ticks` never interleave their writes).
 *
 * Wire: the client sends one JSON line `{token, argv, input}`; the server answers JSON lines
 * `{say}` / `{out}` as the command prints, then `{exit}`.
 */

/** A request line larger than this is refused (a password on stdin is the largest input). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A client that does not send its request in this time is dropped. */
const REQUEST_TIMEOUT_MS = 10_000;

const digest = (text: string) => createHash("sha256").update(text).digest();

const globalStore = processGlobals<{ __brierAdminChannel?: Server }>();

/** Opens the channel for the server process that owns `dataDir`'s embedded stores. Idempotent. */
export async function startAdminChannel(dataDir: string): Promise<void> {
  if (globalStore.__brierAdminChannel !== undefined) return;
  const token = randomBytes(32).toString("base64url");
  const expected = digest(token);
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((socket) => {
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      if (buffered.length > MAX_REQUEST_BYTES) return void socket.destroy();
      const newline = buffered.indexOf("\n");
      if (newline < 0) return;
      socket.off("data", onData);
      socket.setTimeout(0);
      const line = buffered.slice(0, newline);
      queue = queue.then(() => serve(socket, line, expected)).catch((error: unknown) => log.error("admin channel request failed", errorFields(error)));
    };
    socket.on("data", onData);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.unref();
  globalStore.__brierAdminChannel = server;
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, CHANNEL_FILE);
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify({ pid: process.pid, port, token } satisfies ChannelInfo), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  process.once("exit", () => {
    // Only our own file: a newer server may have replaced it.
    if (readChannel(dir)?.pid === process.pid) rmSync(file, { force: true });
  });
  log.info("admin channel listening", { host: "127.0.0.1", port });
}

async function serve(socket: Socket, line: string, expected: Buffer): Promise<void> {
  let request: { token?: unknown; argv?: unknown; input?: unknown };
  try {
    request = JSON.parse(line) as typeof request;
  } catch {
    socket.destroy();
    return;
  }
  if (typeof request.token !== "string" || !timingSafeEqual(digest(request.token), expected)) {
    log.warn("admin channel: a request with a wrong token was refused");
    socket.end(`${JSON.stringify({ say: "Error: the admin channel refused the request (wrong token).", exit: 1 })}\n`);
    return;
  }
  const argv = Array.isArray(request.argv) ? request.argv.filter((a): a is string => typeof a === "string") : [];
  const input = typeof request.input === "string" ? request.input : "";
  const send = (message: Record<string, unknown>) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  const io: AdminIo = { say: (say) => send({ say }), out: (out) => send({ out }), readInput: async () => input };
  log.info("admin channel command", { command: argv[0] ?? null });
  const exit = await runAdminCommand(argv, io);
  socket.end(`${JSON.stringify({ exit })}\n`);
}
