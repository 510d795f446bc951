import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { ServiceUnavailableError } from "@/lib/errors";

/**
 * Two things the embedded engine (chDB) needs for the service's own reads to run side by side
 * (docs/architecture.md, "The embedded engines and the request thread"):
 *
 * 1. **Parameters as literals.** chdb-node runs every query with bound parameters (`{name:Type}`
 *    with `query_params`) through ONE process-wide chain, one at a time, whatever the connection
 *    (its binding is not thread-safe), while queries without parameters run in parallel. Every
 *    history route binds its market and asset, so under load they queued behind each other and
 *    behind the background jobs' reads: seconds per request. Here each placeholder becomes
 *    `CAST('<escaped text>' AS <Type>)`: the value travels as a string literal (backslash and quote
 *    escaped, nothing else special in a ClickHouse string) and the engine converts it to the
 *    declared type exactly as binding would, failing on a value that does not fit it.
 * 2. **A pool of connections.** A chDB connection runs one statement at a time, so the service's
 *    reads get a few connections of their own, taken and given back per statement (chDB
 *    materialises a result before `query` resolves, so nothing is read after the release).
 * 3. **A bounded wait.** A statement that finds every connection busy waits at most `maxWaitMs`
 *    and at most `maxWaiting` others wait with it; past either it is refused at once with a 503
 *    and a Retry-After. Measured without it (bench:load, 200 clients): the waiting line grew
 *    without end, each client gave up after 10 s and asked again, and the engine spent its time
 *    on statements whose clients had left; every history route timed out.
 */

export interface PoolLimits {
  /** Longest a statement waits for a free connection. */
  maxWaitMs: number;
  /** Statements that may wait at once. */
  maxWaiting: number;
}

/** The service's reads: a short wait, then a fast refusal (clients retry after Retry-After). */
export const SERVICE_READ_LIMITS: PoolLimits = { maxWaitMs: 2_000, maxWaiting: 64 };

function busy(): ServiceUnavailableError {
  return new ServiceUnavailableError("The tick store is busy: retry in a second.", { retryAfter: 1 });
}

/** A value as a ClickHouse string literal (arrays as array literals of string literals). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error("a query parameter must be a finite number");
  if (typeof value === "object") throw new Error("a query parameter must be a string, number, boolean or array of them");
  const text = String(value as string | number | boolean | bigint);
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/**
 * `query` with every `{name:Type}` whose name is in `params` replaced by a typed literal; other
 * braces are left as they are. One pass over the text: a value containing braces is never read again.
 */
export function inlineParams(query: string, params: Record<string, unknown> | undefined): string {
  if (params === undefined) return query;
  return query.replace(/\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g, (whole, name: string, type: string) =>
    Object.hasOwn(params, name) ? `CAST(${literal(params[name])} AS ${type.trim()})` : whole,
  );
}

type Method = "query" | "command" | "exec" | "close";
const methods = new Set<PropertyKey>(["query", "command", "exec", "close"]);

/**
 * A client over `clients` (one chDB connection each) whose `query`, `command` and `exec` inline
 * their parameters and run on the first free connection (waiting for one when all are busy, within
 * `limits` when given).
 * `close` closes them all; everything else (insert) goes to the first client.
 */
export function chdbClientPool(clients: readonly ClickHouseClient[], limits?: PoolLimits): ClickHouseClient {
  const [first] = clients;
  if (first === undefined) throw new Error("a chDB pool needs at least one connection");
  const idle = [...clients];
  const waiting: Array<{ resolve: (client: ClickHouseClient) => void; timer: NodeJS.Timeout | undefined }> = [];
  const acquire = () => {
    const free = idle.pop();
    if (free !== undefined) return Promise.resolve(free);
    if (limits !== undefined && waiting.length >= limits.maxWaiting) return Promise.reject(busy());
    return new Promise<ClickHouseClient>((resolve, reject) => {
      const waiter = { resolve, timer: undefined as NodeJS.Timeout | undefined };
      if (limits !== undefined) {
        waiter.timer = setTimeout(() => {
          const at = waiting.indexOf(waiter);
          if (at !== -1) waiting.splice(at, 1);
          reject(busy());
        }, limits.maxWaitMs);
      }
      waiting.push(waiter);
    });
  };
  const release = (client: ClickHouseClient) => {
    const next = waiting.shift();
    if (next === undefined) {
      idle.push(client);
      return;
    }
    clearTimeout(next.timer);
    next.resolve(client);
  };
  const run = (method: Method) => async (params: { query: string; query_params?: Record<string, unknown> }) => {
    const client = await acquire();
    try {
      const call = client[method].bind(client) as (p: typeof params) => Promise<unknown>;
      return await call({ ...params, query: inlineParams(params.query, params.query_params), query_params: undefined });
    } finally {
      release(client);
    }
  };
  const close = async () => {
    for (const client of clients) await client.close();
  };
  const wrapped = { query: run("query"), command: run("command"), exec: run("exec"), close };
  return new Proxy(first, {
    get(target, property, receiver) {
      if (methods.has(property)) return wrapped[property as Method];
      const value = Reflect.get(target, property, receiver) as unknown;
      // The client's own methods run on the client itself (it keeps private state).
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
