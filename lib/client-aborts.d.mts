import type { ServerResponse } from "node:http";

export declare function watchClientGone(res: ServerResponse): () => number | undefined;
export declare function recordClientAbort(abort: { route: string; method: string; elapsedMs: number; quiet?: boolean }): void;
export declare function clientAborts(): { total: number; byRoute: Record<string, number> };
