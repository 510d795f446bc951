import "server-only";
import { randomUUID } from "node:crypto";
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { admitCaller, type AdmissionPolicy, type HeaderView } from "@/lib/auth/admission";
import { activeKeyIds } from "@/lib/auth/api-keys";
import { getDb, type Db } from "@/lib/db";
import { bearerToken } from "@/lib/http/bearer";
import { errorAnswer } from "@/lib/http/errors";
import { errorFields, log } from "@/lib/log";
import type { StreamHub } from "./hub";
import type { Transport } from "./outbox";
import { MAX_CLIENT_MESSAGE_BYTES } from "./protocol";
import { writeTextFrames } from "./ws-frames";

/** The path pmxtjs connects to (`ws(s)://<host>/ws?apiKey=<key>`). */
export const STREAM_PATH = "/ws";
const PING_INTERVAL_MS = 30_000;
const KEY_RECHECK_MS = 15_000;
/** How long a closing connection may take to read its close frame before it is cut. */
const CLOSE_GRACE_MS = 5_000;
/** Every plan may stream; what a plan allows (subscriptions, connections) the hub counts. */
const STREAM_POLICY: AdmissionPolicy = { plan: "free" };

export interface StreamServerOptions {
  hub: () => Promise<StreamHub>;
  db?: () => Promise<Db>;
  /** How often open connections' keys are re-checked for revocation (default 15 s). */
  keyRecheckMs?: number;
}

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface StreamServer {
  /** For `server.on("upgrade", ...)`: answers /ws, refuses everything else. */
  upgrade: UpgradeHandler;
  close(): Promise<void>;
}

/** The API key a WebSocket client presents: `?apiKey=` (pmxtjs hosted mode), `?token=`, or `Authorization: Bearer`. */
function presentedToken(url: URL, headers: HeaderView): string | null | undefined {
  const fromQuery = url.searchParams.get("apiKey") ?? url.searchParams.get("token");
  if (fromQuery !== null && fromQuery !== "") return fromQuery;
  return bearerToken(headers);
}

/** Answers a refused upgrade as the HTTP surface would (pmxt's envelope, its status), then closes; gives the status. */
async function refuse(socket: Duplex, error: unknown): Promise<number> {
  const response = errorAnswer(error, "api", randomUUID());
  const body = JSON.stringify(response.body);
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? "Error"}`, "content-type: application/json", `content-length: ${Buffer.byteLength(body)}`, "connection: close"];
  const retryAfter = response.headers["retry-after"];
  if (retryAfter !== undefined) lines.push(`retry-after: ${retryAfter}`);
  if (socket.writable) socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
  else socket.destroy();
  return response.status;
}

/** Node's request headers as admission reads them (a repeated header joined, as fetch does). */
function headerView(request: IncomingMessage): HeaderView {
  return {
    get(name) {
      const value = request.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

function wsTransport(ws: WebSocket, socket: Duplex): Transport {
  return {
    buffered: () => ws.bufferedAmount,
    write: (messages) => {
      if (ws.readyState === ws.OPEN) writeTextFrames(socket, messages);
    },
    close: (code, reason) => {
      ws.close(code, reason);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
}

/**
 * The /ws endpoint as an upgrade handler for any node:http server: `npm start`'s server.mjs mounts
 * it (through the compiled app/ws route module), tests and the bench mount it on a plain server.
 * Admission is the HTTP surface's own function (lib/auth/admission.ts: key or session, the
 * same-origin rule for sessions, rate limit, plan, a usage row per upgrade), before the upgrade.
 */
export function createStreamServer(options: StreamServerOptions): StreamServer {
  const db = options.db ?? getDb;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: false });

  const keyCheck = setInterval(() => {
    void (async () => {
      const hub = await options.hub();
      const keyIds = hub.openKeyIds();
      if (keyIds.length === 0) return;
      const active = await activeKeyIds(await db(), keyIds);
      for (const keyId of keyIds) if (!active.has(keyId)) hub.closeKey(keyId, "API key revoked");
    })().catch((error: unknown) => log.warn("stream key re-check failed", errorFields(error)));
  }, options.keyRecheckMs ?? KEY_RECHECK_MS);
  keyCheck.unref();

  const ping = setInterval(() => {
    for (const client of wss.clients) {
      const alive = client as WebSocket & { brierAlive?: boolean };
      if (alive.brierAlive === false) {
        client.terminate();
        continue;
      }
      alive.brierAlive = false;
      client.ping();
    }
  }, PING_INTERVAL_MS);
  ping.unref();

  async function accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const startedAt = performance.now();
    const url = new URL(request.url ?? "/", "http://localhost");
    const hub = await options.hub();
    const headers = headerView(request);
    const call = { transport: "socket", method: "GET", url, headers, token: presentedToken(url, headers), requestId: randomUUID(), startedAt } as const;
    const admission = await admitCaller(await db(), call, STREAM_POLICY);
    const { principal } = admission;
    try {
      if (admission.refusal !== undefined || principal === undefined) throw admission.refusal;
      const connection = await hub.admitConnection({ accountId: principal.accountId, keyId: principal.keyId, plan: principal.plan });
      if (socket.destroyed) {
        await connection.lease.release();
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        admission.finish(101);
        const session = hub.open(connection, "ws", wsTransport(ws, socket));
        (ws as WebSocket & { brierAlive?: boolean }).brierAlive = true;
        ws.on("pong", () => {
          (ws as WebSocket & { brierAlive?: boolean }).brierAlive = true;
        });
        ws.on("message", (raw) => {
          const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
          void session.handle(bytes.toString("utf8"));
        });
        ws.on("close", () => session.closedByTransport());
        ws.on("error", () => session.closedByTransport());
      });
    } catch (error) {
      admission.finish(await refuse(socket, error));
    }
  }

  return {
    upgrade(request, socket, head) {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (url.pathname !== STREAM_PATH) {
        socket.destroy();
        return;
      }
      socket.on("error", () => socket.destroy());
      accept(request, socket, head).catch((error: unknown) => refuse(socket, error).catch(() => socket.destroy()));
    },
    async close() {
      clearInterval(keyCheck);
      clearInterval(ping);
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
