import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AppError } from "@/lib/errors";
import { withRequest } from "@/lib/http";
import { getStreamServer } from "@/lib/streams/live";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /ws without an upgrade (next start, Vercel, a plain HTTP client): the socket needs `npm start`.
export const GET = withRequest(async () => {
  throw new AppError(
    "not_implemented",
    "GET /ws is a WebSocket endpoint served by Brier's Node server (npm start); this deployment cannot upgrade. Use GET /v0/stream (Server-Sent Events) instead.",
  );
}, { surface: "api" });

/**
 * Not a Next route export: server.mjs loads this compiled module the way it loads every API route
 * and hands it the `upgrade` events of /ws (route handlers cannot upgrade a connection).
 */
export function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
  getStreamServer().upgrade(request, socket, head);
}
