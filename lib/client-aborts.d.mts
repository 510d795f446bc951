import type { IncomingMessage, ServerResponse } from "node:http";

export declare function clientGone(req: IncomingMessage, res: ServerResponse): boolean;
export declare function recordClientAbort(abort: { route: string; method: string; elapsedMs: number; quiet?: boolean }): void;
export declare function clientAborts(): { total: number; byRoute: Record<string, number> };
