import "server-only";
import { timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";
import { UnauthorizedError } from "@/lib/errors";
import { bearerToken } from "./bearer";
import type { Reply } from "./reply";
import { withRequest, type RequestContext, type RouteHandler } from "./with-api-key";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The wrapper of cron routes (Vercel cron): `Authorization: Bearer $CRON_SECRET` compared in
 * constant time, then the handler; otherwise 401. Unset CRON_SECRET: every call is refused, so a
 * cron route is never an open trigger.
 */
export function withCronSecret<P = Record<string, never>>(
  handler: (context: RequestContext<P>) => Promise<Reply>,
): RouteHandler<P> {
  return withRequest<P>(async (context) => {
    const secret = config.cronSecret;
    const token = bearerToken(context.request.headers);
    if (secret === undefined || typeof token !== "string" || !sameSecret(token, secret)) {
      throw new UnauthorizedError("Cron calls need 'Authorization: Bearer <CRON_SECRET>'.");
    }
    return handler(context);
  });
}
