import "server-only";
import { readFileSync } from "node:fs";
import { createConnection } from "node:net";
import path from "node:path";

/**
 * The admin CLI's side of the admin channel (./channel.ts has the server's side and the why):
 * find the channel of the server that holds a data dir, send it a command line, relay its lines.
 * Light on purpose: `npm run demo` imports it and stays resident beside the server it started.
 */

export const CHANNEL_FILE = ".admin-channel";
export interface ChannelInfo {
  pid: number;
  port: number;
  token: string;
}

/** The channel the server holding `dataDir` listens on, or undefined (no server, or it died). */
export function readChannel(dataDir: string): ChannelInfo | undefined {
  let info: Partial<ChannelInfo>;
  try {
    info = JSON.parse(readFileSync(path.join(path.resolve(dataDir), CHANNEL_FILE), "utf8")) as Partial<ChannelInfo>;
  } catch {
    return undefined;
  }
  if (typeof info.pid !== "number" || typeof info.port !== "number" || typeof info.token !== "string") return undefined;
  try {
    process.kill(info.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return undefined;
  }
  return { pid: info.pid, port: info.port, token: info.token };
}

/**
 * Sends a command line to the running server's channel and relays its lines to `io`; resolves to
 * the exit code, or undefined when nothing answered on the channel (the server is gone).
 */
export function sendAdminCommand(channel: ChannelInfo, argv: readonly string[], input: string, io: { say(message: string): void; out(result: string): void }): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port: channel.port });
    let connected = false;
    let exit: number | undefined;
    let buffered = "";
    socket.on("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify({ token: channel.token, argv, input })}\n`);
    });
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const message = JSON.parse(buffered.slice(0, newline)) as { say?: string; out?: string; exit?: number };
        buffered = buffered.slice(newline + 1);
        if (typeof message.say === "string") io.say(message.say);
        if (typeof message.out === "string") io.out(message.out);
        if (typeof message.exit === "number") exit = message.exit;
        newline = buffered.indexOf("\n");
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (connected && exit === undefined) io.say("Error: the server closed the admin channel before the command finished (see the server's log).");
      resolve(connected ? (exit ?? 1) : undefined);
    });
  });
}
