import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createClient, type ClickHouseClient, type ClickHouseSettings } from "@clickhouse/client";
import { config } from "@/lib/config";
import { lockDataDir } from "@/lib/db/data-dir-lock";
import { chdbClientPool, SERVICE_READ_LIMITS } from "./chdb-clients";
import { applyTickDdl } from "./migrate";
import { tickReaderOf, type TickReader } from "./query";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * ClickHouse access: one writer client that never receives per-query settings, and one reader
 * client whose limits are set once and then frozen with readonly (docs/architecture.md, pitfall 5).
 * Embedded chDB in DATA_DIR/ch by default, a ClickHouse server (or cluster) with CLICKHOUSE_URL.
 */

export interface TickStores {
  writer: ClickHouseClient;
  /** The DDL versions (lib/ticks/ddl) these stores applied when they opened; empty when none was pending. */
  ddlApplied?: string[];
  /** The first of `readers`. */
  reader: ClickHouseClient;
  /**
   * The service's own reads for requests (history, price snapshots): without the SQL reader's
   * limits. Background jobs (the archive's stats) read on the writer's connection instead, so they
   * never take a request's turn nor get refused when requests fill the pool. On chDB a pool of SERVICE_READ_SLOTS connections with parameters inlined
   * (lib/ticks/chdb-clients.ts), so they run side by side; over HTTP the writer's client.
   */
  queries: ClickHouseClient;
  /** `queries` as the one way in for reads (lib/ticks/query.ts). */
  service: TickReader;
  /**
   * Background reads (the archive's stats): a connection of their own on chDB, so they never take
   * a request's turn in the `queries` pool nor get refused when requests fill it; never the writer.
   */
  background: TickReader;
  /**
   * One client per SQL slot (lib/sql/execute.ts). On chDB each is its own connection, since a
   * connection runs one statement at a time; over HTTP they are the same client.
   */
  readers: ClickHouseClient[];
  engine: "chdb" | "server";
  database: string;
  /**
   * A SELECT's result in `format` (e.g. Parquet) as the engine writes it, chunk by chunk: over HTTP
   * the response body, on chDB a streaming query on a connection of its own (at most
   * STREAM_SLOTS at once; more wait). Never the whole result in this process's memory.
   * Values must already be literals the caller validated (chDB's streaming API binds none).
   */
  streamQuery: (query: string, format: string, signal?: AbortSignal) => AsyncIterable<Uint8Array>;
  close: () => Promise<void>;
}

/**
 * The service's own reads the embedded engine runs at once (its `queries` pool): two, the cores of
 * the machine class, beside the SQL slots below; more wait for a free connection.
 */
export const SERVICE_READ_SLOTS = 2;

/** Streamed results (archive files) the embedded engine runs at once; each has its own chDB connection. */
export const STREAM_SLOTS = 2;

export interface TickTarget {
  /** http(s) URL of a ClickHouse server; when absent, embedded chDB at `dataDir`. */
  url?: string | undefined;
  user?: string;
  password?: string;
  database?: string;
  /** The SQL reader's own user (lib/ticks/reader-user.ts); without it the reader shares the writer's user. */
  reader?: { user: string; password: string } | undefined;
  dataDir?: string;
}

/**
 * Engine-side limits of every user query (POST /v0/sql, docs/ticks.md). `limit` caps the rows
 * any statement returns (chDB materializes results, so the cap must be in the engine);
 * `force_primary_key` fails a tick-table query without a `market` filter at once; results are
 * rendered in UTC with 64-bit integers as JSON numbers. readonly must stay last: it freezes the others.
 */
export const readerSettings: ClickHouseSettings = {
  max_execution_time: 5,
  timeout_overflow_mode: "throw",
  max_memory_usage: "2000000000",
  max_rows_to_read: "200000000",
  max_bytes_to_read: "20000000000",
  max_result_rows: "10001",
  // Bytes of result blocks (strings counted by length); the response itself is capped at 16 MiB.
  max_result_bytes: "33554432",
  result_overflow_mode: "break",
  limit: "10000",
  force_primary_key: 1,
  // A metadata-only count() or min/max would otherwise answer without the primary key.
  optimize_trivial_count_query: 0,
  optimize_use_implicit_projections: 0,
  session_timezone: "UTC",
  output_format_json_quote_64bit_integers: 0,
  readonly: "1",
};

/**
 * SQL slots: queries the engine runs at once for POST /v0/sql. chDB runs each on a libuv worker
 * (4 by default, shared with file and DNS work), and the machine class has 2 cores: three slots
 * keep a worker free and the CPU from thrashing. One of them is reserved for light keys (lib/sql/scheduler.ts).
 */
export const SQL_READER_SLOTS = 3;

/**
 * The embedded engine's caches, bounded (docs/performance.md, "Memory"). chDB starts with a
 * ClickHouse server's defaults, sized for a machine of its own: 5 GiB each for marks, primary
 * indexes and index marks, capped only at half the RAM, so a long-running server's resident set
 * grew with every part it read. These limits hold the caches that speed up repeated reads of recent
 * hours while keeping the total near 200 MB. They are engine start-up arguments, so they are given to
 * the process's first chDB session (every later connection to the data dir shares its engine).
 */
export const CHDB_CACHE_LIMITS = {
  mark_cache_size: 64 * 1024 * 1024,
  primary_index_cache_size: 32 * 1024 * 1024,
  index_mark_cache_size: 16 * 1024 * 1024,
  index_uncompressed_cache_size: 0,
  uncompressed_cache_size: 0,
  query_condition_cache_size: 16 * 1024 * 1024,
  compiled_expression_cache_size: 32 * 1024 * 1024,
  parquet_metadata_cache_size: 16 * 1024 * 1024,
  vector_similarity_index_cache_size: 16 * 1024 * 1024,
} as const;

export async function openTickStores(target: TickTarget): Promise<TickStores> {
  const database = target.database ?? "default";
  if (target.url !== undefined) {
    const common = {
      url: target.url,
      username: target.user ?? "default",
      password: target.password ?? "",
      database,
      request_timeout: 30_000,
    };
    const writer = createClient(common);
    // The service's reads: the same user, but readonly=2 on every request, so a read can never write.
    const queries = createClient({ ...common, clickhouse_settings: { readonly: "2" } });
    // Over HTTP the settings travel with every request; readonly=2 lets them be sent while
    // still refusing writes. Statement-level SETTINGS are refused by the SQL guard.
    const credentials = target.reader === undefined ? {} : { username: target.reader.user, password: target.reader.password };
    const reader = createClient({ ...common, ...credentials, clickhouse_settings: { ...readerSettings, readonly: "2" } });
    const streamQuery: TickStores["streamQuery"] = (query, format, signal) => serverStream(queries, query, format, signal);
    const service = tickReaderOf(queries, streamQuery, database);
    const stores: TickStores = {
      writer,
      queries,
      service,
      background: service,
      reader,
      readers: Array.from({ length: SQL_READER_SLOTS }, () => reader),
      engine: "server",
      database,
      streamQuery,
      close: async () => {
        await Promise.all([writer.close(), queries.close(), reader.close()]);
      },
    };
    stores.ddlApplied = await applyTickDdl(writer, database);
    return stores;
  }

  const dataDir = path.resolve(/* turbopackIgnore: true */ target.dataDir ?? path.join(config.dataDir, "ch"));
  mkdirSync(dataDir, { recursive: true });
  // The engine's first session carries its start-up arguments (the cache limits above); it stays
  // open while the stores are, so the engine keeps them.
  const { Session } = await import("chdb");
  const engine = new Session(dataDir, { connectionArgs: Object.entries(CHDB_CACHE_LIMITS).map(([name, bytes]) => `--${name}=${bytes}`) });
  const { createChdbConnection } = await import("chdb/connection");
  type ConnectionOption = NonNullable<Parameters<typeof createClient>[0]>["connection"];
  // chDB vendors its own copy of the client's common types (docs/architecture.md, pitfall 4).
  const connect = () => createChdbConnection({ path: dataDir }) as unknown as ConnectionOption;
  // The writer inlines its parameters too (lib/ticks/chdb-clients.ts): bound ones would queue in chdb-node's one chain.
  const writer = chdbClientPool([createClient({ connection: connect() })]);
  const ddlApplied = await applyTickDdl(writer, database);
  // Read-only connections for the service's reads (settings stick to a chDB session). readonly=2:
  // writes refused, the `format()` of a SQL export allowed (readonly=1 refuses every table function).
  const readOnly = async () => {
    const client = createClient({ connection: connect() });
    await client.command({ query: "SELECT 1", clickhouse_settings: { readonly: "2" } });
    return client;
  };
  const queries = chdbClientPool(await Promise.all(Array.from({ length: SERVICE_READ_SLOTS }, readOnly)), SERVICE_READ_LIMITS);
  const background = chdbClientPool([await readOnly()]);
  const readers: ClickHouseClient[] = [];
  for (let i = 0; i < SQL_READER_SLOTS; i += 1) {
    const reader = createClient({ connection: connect() });
    // Settings stick to a chDB connection's session: set them once, readonly last.
    await reader.command({ query: "SELECT 1", clickhouse_settings: readerSettings });
    readers.push(reader);
  }
  const [reader] = readers;
  if (reader === undefined) throw new Error("no SQL reader slots");
  const streams = new ChdbStreamPool(() => createChdbConnection({ path: dataDir }));
  const streamQuery: TickStores["streamQuery"] = (query, format, signal) => streams.run(query, format, signal);
  return {
    writer,
    ddlApplied,
    queries,
    service: tickReaderOf(queries, streamQuery, database),
    background: tickReaderOf(background, streamQuery, database),
    reader,
    readers,
    engine: "chdb",
    database,
    streamQuery,
    close: async () => {
      for (const each of readers) await each.close();
      await queries.close();
      await background.close();
      streams.close();
      await writer.close();
      engine.close();
    },
  };
}

async function* serverStream(client: ClickHouseClient, query: string, format: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const result = await client.exec({ query: `${query} FORMAT ${format}`, ...(signal === undefined ? {} : { abort_signal: signal }) });
  for await (const chunk of result.stream) yield chunk as Uint8Array;
}

interface StreamingConnection {
  chdb: { queryStream: (sql: string, opts: { format: string; signal?: AbortSignal }) => AsyncIterable<{ raw(): Uint8Array }> & { cancel(): void } };
  close(): Promise<void> | void;
}

/** chDB connections for streamed results: a session runs one stream at a time, so each stream holds one. */
class ChdbStreamPool {
  readonly #idle: StreamingConnection[] = [];
  readonly #waiting: Array<(connection: StreamingConnection) => void> = [];
  #open = 0;

  constructor(private readonly connect: () => unknown) {}

  async *run(query: string, format: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    const connection = await this.#acquire();
    const stream = connection.chdb.queryStream(query, { format, ...(signal === undefined ? {} : { signal }) });
    try {
      for await (const chunk of stream) yield chunk.raw();
    } finally {
      stream.cancel();
      this.#release(connection);
    }
  }

  close(): void {
    for (const connection of this.#idle.splice(0)) void connection.close();
  }

  #acquire(): Promise<StreamingConnection> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#open < STREAM_SLOTS) {
      this.#open += 1;
      return Promise.resolve(this.connect() as StreamingConnection);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(connection: StreamingConnection): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next(connection);
    else this.#idle.push(connection);
  }
}

const globalStore = processGlobals<{ __brierTicks?: Promise<TickStores> }>();

/**
 * A request's reader: the process's service reads, the stores opened at its first read (a server
 * without background jobs opens chDB at the first request that reads ticks, not at every request).
 * Handlers get it from their context (lib/http) as they get `db`.
 */
export function requestTickReader(): TickReader {
  return {
    client: async () => (await getTickStores()).queries,
    streamQuery: (query, format, signal) => ({
      async *[Symbol.asyncIterator]() {
        yield* (await getTickStores()).streamQuery(query, format, signal);
      },
    }),
    database: async () => (await getTickStores()).database,
  };
}

/** The process-wide tick stores, opened (and DDL applied) on first use. */
export function getTickStores(): Promise<TickStores> {
  if (globalStore.__brierTicks === undefined) {
    if (config.embeddedClickhouse) lockDataDir(config.dataDir, "ch");
    const opening = openTickStores({
      url: config.clickhouse.url,
      user: config.clickhouse.user,
      password: config.clickhouse.password,
      database: config.clickhouse.database,
      reader: config.clickhouse.reader,
      dataDir: path.join(config.dataDir, "ch"),
    });
    globalStore.__brierTicks = opening;
    opening.catch(() => {
      if (globalStore.__brierTicks === opening) globalStore.__brierTicks = undefined;
    });
  }
  return globalStore.__brierTicks;
}

/**
 * Whether this process has opened (or is opening) its tick stores. The embedded engine costs ~200 MB
 * resident once loaded, so a server whose background jobs do not need it opens it at the first
 * request that does (lib/jobs/background.ts); probes and the status page ask this first.
 */
export function tickStoresOpened(): boolean {
  return globalStore.__brierTicks !== undefined;
}

export async function closeTickStores(): Promise<void> {
  const opening = globalStore.__brierTicks;
  globalStore.__brierTicks = undefined;
  if (opening !== undefined) await (await opening).close();
}
