/**
 * bench:catalog — the catalog at scale. Seeds 1,000,000 markets in 250,000 events (synthetic titles
 * with common, medium and rare words, skewed volumes, ten categories, seven venues) into a fresh
 * PostgreSQL database through the ingestion upsert path (measuring markets/s), then drives
 * GET /v0/markets over loopback against the production server (server.mjs) and runs the very same SQL statement directly
 * on the database in the same run, with the same concurrency, and prints both side by side.
 *
 *   NEXT_DIST_DIR=.next-catalog npx next build
 *   NEXT_DIST_DIR=.next-catalog npm run bench:catalog [-- --markets 1000000 --seconds 8 --connections 2 --port 3150]
 *
 * Targets (docs/performance.md; 2 cores, PostgreSQL, quiet machine): default listing p95 <= 4 ms and
 * endpoint/database p95 <= 2.5; cursor at row 100,000 and category+exchange p95 <= 4 ms;
 * query=senate p95 <= 12 ms; default listing server CPU <= 0.5 ms per request; upsert >= 50,000
 * markets/s inserted, >= 50,000/s re-ingested unchanged and >= 50,000/s re-ingested with every
 * price and volume changed (a re-poll of 1M markets in <= 20 s, issue 27). The database baseline of each case is the statement the endpoint runs for it. The
 * database is created and dropped by the script (kept with --keep-database, e.g. to EXPLAIN).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { PgDialect } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { ensureAccount, setPlan } from "@/lib/auth/accounts";
import { createApiKey } from "@/lib/auth/api-keys";
import { categories } from "@/lib/catalog/categories";
import { encodeCursor } from "@/lib/catalog/cursor";
import { eventUuid, marketUuid } from "@/lib/catalog/ids";
import type { NormalizedEvent } from "@/lib/catalog/normalize";
import { marketPageVersions, marketTotal } from "@/lib/catalog/list";
import { listMarketsQuery, type ListQuery } from "@/lib/catalog/shapes";
import type { ListTotal } from "@/lib/catalog/totals";
import { parseQuery } from "@/lib/input";
import { upsertCatalog } from "@/lib/catalog/store";
import { openDatabase, type Db } from "@/lib/db";
import { percentile, printTable } from "./lib/harness";
import { loadLine, memoryReport, processCpuMs, processCpuTimesMs } from "./lib/memory";
import { monotonicMicros, newestProfile, summarizeProfile } from "./lib/profile";
import { startServer } from "./lib/server";

const { values } = parseArgs({
  options: {
    markets: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "8" },
    // 2 = the cores of the target machine: latency, not queueing behind a saturated CPU.
    connections: { type: "string", default: "2" },
    port: { type: "string", default: "3150" },
    workers: { type: "string", default: "2" },
    // Only the cases whose name starts with one of these (comma-separated), e.g. "default,cursor".
    cases: { type: "string", default: "" },
    // Write a CPU profile of the server over the endpoint cases into this directory and print its top frames.
    profile: { type: "string", default: "" },
    // Leave the seeded database in place (its URL is printed), e.g. to EXPLAIN a statement.
    "keep-database": { type: "boolean", default: false },
    // Use (and keep) this database: seeded on the first run, reused as it is by the next ones
    // (the write cases then insert 100,000 more markets, measure, and delete them again).
    database: { type: "string", default: "" },
    // Print each case's plan (EXPLAIN ANALYZE of every statement its first page runs) before measuring.
    plans: { type: "boolean", default: false },
    // Only print the plans (on a kept --database): no writes, no server, no load.
    "plans-only": { type: "boolean", default: false },
    // Skip the write cases (their rates print as n/a): to measure the read cases again on a kept --database.
    "skip-writes": { type: "boolean", default: false },
    // Only the write cases (no server, no read cases): to compare write paths on a kept --database.
    "writes-only": { type: "boolean", default: false },
    // Markets of the base catalog per settled re-poll case (read back, spread over it; 0 skips them).
    settled: { type: "string", default: "100000" },
    // The read cases on the database only (no server, no build needed): each case's statements as the endpoint sends them.
    "database-only": { type: "boolean", default: false },
    // What each case's database time is made of, under the same closed-loop load: every statement of
    // its page as EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, SETTINGS, SUMMARY), p50/p95 of the round
    // trip, planning, execution, JIT and buffers read (no server; implies --skip-writes).
    anatomy: { type: "boolean", default: false },
  },
});
const caseFilter = values.cases.split(",").map((c) => c.trim()).filter((c) => c !== "");
const profileDir = values.profile;
const totalMarkets = Number(values.markets);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const port = Number(values.port);
const workers = Number(values.workers);
const settledMarkets = Number(values.settled);
const MARKETS_PER_EVENT = 4;
// The offset and cursor cases sit at row 100,000 of the open markets (about 90% of all).
if (!Number.isInteger(totalMarkets) || totalMarkets < 120_000) throw new Error("--markets must be at least 120000 (the cursor and offset cases read at row 100,000)");
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// Deterministic PRNG (mulberry32): the same catalog every run.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const venues = ["polymarket", "polymarket", "polymarket", "kalshi", "kalshi", "limitless", "myriad", "probable", "opinion", "baozi"];
const subjects = ["Trump", "Biden", "Harris", "Newsom", "Musk", "the Fed", "Bitcoin", "Ethereum", "Solana", "Nvidia", "Apple",
  "the Lakers", "the Celtics", "Real Madrid", "Arsenal", "Djokovic", "Alcaraz", "OpenAI", "SpaceX", "Tesla", "the ECB",
  "Zelensky", "Putin", "Macron", "Modi", "Milei", "Lula", "the Yankees", "the Chiefs", "Taylor Swift"];
const verbs = ["win", "reach", "announce", "hold", "cut", "beat", "sign", "launch", "visit", "close above", "drop below", "lead"];
const objects = ["the election", "the championship", "$100k", "$5,000", "rates", "the final", "a deal", "the summit",
  "the playoffs", "the nomination", "a new record", "the primary", "the treaty", "the cup"];
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
// Search words: "price" in ~25% of titles (common), "senate" in ~1% (medium), "zanzibar" in 20 (rare).
/**
 * The subjects' last words ("trump", "fed", "madrid", ...: each in ~3 % of titles). A case whose query
 * string has `{subject}` sends each in turn, so its pages are 26 words' walks over different index and
 * heap pages, as users' searches are, not one page kept warm by being asked again.
 */
const subjectWords = [...new Set(subjects.map((s) => (s.split(" ").at(-1) ?? s).toLowerCase()))];
const queryStrings = (qs: string): string[] => (qs.includes("{subject}") ? subjectWords.map((w) => qs.replace("{subject}", w)) : [qs]);
function title(i: number): string {
  let t = `Will ${pick(subjects)} ${pick(verbs)} ${pick(objects)} by ${pick(months)} ${2026 + (i % 3)}?`;
  if (random() < 0.25) t = `${t} (price market)`;
  if (random() < 0.01) t = `Senate: ${t}`;
  if (i % Math.floor(totalMarkets / 20) === 7) t = `${t} Zanzibar edition`;
  return t;
}

function makeBatch(firstEvent: number, count: number): NormalizedEvent[] {
  const out: NormalizedEvent[] = [];
  const now = new Date();
  for (let e = firstEvent; e < firstEvent + count; e += 1) {
    const venue = pick(venues);
    const venueEventId = `bench-ev-${e}`;
    const eventId = eventUuid(venue, venueEventId);
    const category = pick(categories);
    const closed = random() < 0.1;
    const rows: NormalizedEvent["markets"] = [];
    for (let k = 0; k < MARKETS_PER_EVENT; k += 1) {
      const i = e * MARKETS_PER_EVENT + k;
      const venueMarketId = `bench-mk-${i}`;
      const t = title(i);
      const price = Math.round(random() * 1000) / 1000;
      rows.push({
        id: marketUuid(venue, venueMarketId),
        eventId,
        venue,
        venueMarketId,
        title: t,
        slug: t.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") + `-${i}`,
        description: "Resolves Yes if the stated outcome happens before the deadline, per the official source.",
        category,
        outcomes: [
          { outcomeId: `${i}1`, label: "Yes", price, priceChange24h: Math.round((random() - 0.5) * 100) / 1000 },
          { outcomeId: `${i}2`, label: "No", price: Math.round((1 - price) * 1000) / 1000, priceChange24h: 0 },
        ],
        outcomeIds: [`${i}1`, `${i}2`],
        volume24h: Math.round(Math.exp(random() * 14)) / 100,
        volume: Math.round(Math.exp(random() * 18)) / 100,
        liquidity: Math.round(Math.exp(random() * 12)) / 100,
        openInterest: Math.round(Math.exp(random() * 12)) / 100,
        status: closed ? "closed" : "active",
        closed,
        resolutionDate: new Date(Date.UTC(2026 + (i % 3), i % 12, 1 + (i % 28))),
        contractAddress: `0x${i.toString(16).padStart(64, "0")}`,
        url: `https://example.test/${venue}/${venueMarketId}`,
        image: null,
        lastSeenAt: now,
      });
    }
    out.push({
      event: {
        id: eventId,
        venue,
        venueEventId,
        title: title(e).replace("Will ", "Will: "),
        slug: `bench-event-${e}`,
        description: null,
        category,
        venueCategory: category,
        tags: [category],
        image: null,
        url: null,
        volume24h: rows.reduce((s, r) => s + (r.volume24h ?? 0), 0),
        volume: null,
        closed,
        resolutionDate: null,
        lastSeenAt: now,
      },
      markets: rows,
    });
  }
  return out;
}

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  n: number;
  failures: number;
}

/** Closed-loop load: `connections` workers issue `run` back to back for `seconds`; exact percentiles. */
async function load(run: () => Promise<boolean>, warmupSeconds = 1): Promise<Stats> {
  const drive = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let failures = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const ok = await run().catch(() => false);
          if (record) latencies.push(performance.now() - t0);
          if (!ok) failures += 1;
        }
      }),
    );
    return { latencies, failures };
  };
  await drive(warmupSeconds * 1000, false);
  const started = performance.now();
  const { latencies, failures } = await drive(seconds * 1000, true);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => percentile(latencies, p);
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99), rps: latencies.length / elapsed, n: latencies.length, failures };
}

type BenchCase = [name: string, queryString: string, kind: "listing" | "search" | undefined];

/**
 * The cases: [name, query string, kind]. A listing's target is endpoint p95 <= 4 ms and <= 1.5x the
 * database; a search's is database p95 <= 12 ms and endpoint <= 1.5x it (issue 37).
 */
async function benchCases(direct: postgres.Sql): Promise<BenchCase[]> {
  // The cursor equivalent of offset=100000: the keyset position of row 100,000.
  const [row] = await direct<{ volume24h: number; id: string }[]>`
    select volume24h, id from market_ranks where closed = false
    order by volume24h desc nulls last, id desc nulls last offset 99999 limit 1`;
  if (row === undefined) throw new Error("seed too small for offset 100000");
  const cursor = encodeCursor({ sort: "volume24h", key: Number(row.volume24h), id: row.id });
  const cases: BenchCase[] = [
      ["default listing", "", "listing"],
      ["cursor at row 100000", `cursor=${cursor}`, "listing"],
      ["category=Sports&exchange=kalshi", "category=Sports&exchange=kalshi", "listing"],
      ["sort=newest", "sort=newest", "listing"],
      ["sort=liquidity", "sort=liquidity", "listing"],
      ["offset=100000", "offset=100000", undefined],
      ["query=price (common, ~25%)", "query=price", "search"],
      ["query=senate (medium, ~1%)", "query=senate", "search"],
      ["query=sen (a prefix, ~1%)", "query=sen", "search"],
      ["query=bitcoin 100k (two words, ~0.2%)", "query=bitcoin%20100k", "search"],
      ["query=djokovic final january 2027 (~60 rows)", "query=djokovic%20final%20january%202027", "search"],
      ["query=zanzibar (rare, 20 rows)", "query=zanzibar", "search"],
      ["query=123457 (slug only, 1 row)", "query=123457", "search"],
      ["query=<26 subjects in turn> (~3% each)", "query={subject}", "search"],
      ["query=<26 subjects in turn>&sort=change24h", "query={subject}&sort=change24h", "search"],
      ["query=<26 subjects in turn>&sort=newest", "query={subject}&sort=newest", "search"],
      ["query=senate&sort=newest", "query=senate&sort=newest", "search"],
      ["query=senate&sort=liquidity", "query=senate&sort=liquidity", "search"],
      ["query=senate&sort=change24h", "query=senate&sort=change24h", "search"],
      ["query=senate&sort=resolutionDate", "query=senate&sort=resolutionDate", "search"],
      ["query=senate&category=Politics (~0.1%)", "query=senate&category=Politics", "search"],
      ["query=price&category=Sports (~2.5%)", "query=price&category=Sports", "search"],
      ["query=zanzibar&category=Sports (rare, a filter)", "query=zanzibar&category=Sports", "search"],
      ["query=senate&exchange=kalshi (~0.2%)", "query=senate&exchange=kalshi", "search"],
    ];
  return cases.filter(([name]) => caseFilter.length === 0 || caseFilter.some((c) => name.startsWith(c)));
}

/** EXPLAIN ANALYZE of every statement the first page of GET /v0/markets?`qs` runs, printed under `name`. */
async function printPlan(db: Db, direct: postgres.Sql, name: string, rotated: string): Promise<void> {
  const qs = queryStrings(rotated)[0] ?? rotated;
  const explained: string[] = [];
  const listQuery = parseQuery(listMarketsQuery, new URLSearchParams(qs));
  await marketPageVersions(listQuery, async (statement) => {
    const { sql, params } = new PgDialect().sqlToQuery(statement);
    // The planner's estimates a page asks for (lib/catalog/list.ts `filterRows`) are EXPLAINs already.
    if (sql.startsWith("explain")) return (await direct.unsafe(sql, params as never[], { prepare: false })) as unknown as Array<Record<string, unknown>>;
    const plan = await direct.unsafe(`explain (analyze, buffers, costs off) ${sql}`, params as never[], { prepare: false });
    explained.push(plan.map((line) => String(line["QUERY PLAN"])).join("\n"));
    // The page as the endpoint reads it, so a second tier's statement runs only when the first ran out.
    return (await direct.unsafe(sql, params as never[], { prepare: false })) as unknown as Array<Record<string, unknown>>;
  }, await marketTotal(db, listQuery));
  console.log(`\nplan of ${name} (${explained.length} statement${explained.length === 1 ? "" : "s"}):\n${explained.join("\n--\n")}`);
}

/**
 * A write case's rate, this process's CPU per market (generating the batches of `ingest` included)
 * and the database's: the CPU of this database's backends (PostgreSQL on this machine, read from
 * /proc; the shared server's WAL writer, checkpointer and other databases' backends not included).
 * Unlike the rate, the two CPU figures barely move with the load others put on the machine, and
 * their sum bounds what two cores can write: 2 cores / (writer + database) markets/s.
 */
interface WriteRate {
  rate: number;
  clientMicros: number;
  databaseMicros: number;
  /** Of `databaseMicros`, the kernel's share (system time: reads and writes of pages between shared buffers and the OS, the WAL). */
  databaseSystemMicros: number;
}

/** This database's backends by pid, each with its user and system CPU so far in ms (a backend gone since is not counted). */
async function databaseCpu(direct: postgres.Sql): Promise<Map<number, { user: number; system: number }>> {
  const pids = await direct<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`;
  const out = new Map<number, { user: number; system: number }>();
  for (const { pid } of pids) {
    const times = processCpuTimesMs(pid);
    if (times !== undefined) out.set(pid, times);
  }
  return out;
}

/** Runs `write` (which writes `markets` markets) and measures its rate and this process's and the database's CPU per market. */
async function measured(direct: postgres.Sql, markets: number, write: () => Promise<void>): Promise<WriteRate> {
  const before = await databaseCpu(direct);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await write();
  const used = process.cpuUsage(cpu);
  const rate = markets / ((performance.now() - t0) / 1000);
  let [user, system] = [0, 0];
  // A backend that started during the write started at ~0 ms.
  for (const [pid, times] of await databaseCpu(direct)) {
    user += times.user - (before.get(pid)?.user ?? 0);
    system += times.system - (before.get(pid)?.system ?? 0);
  }
  return { rate, clientMicros: (used.user + used.system) / markets, databaseMicros: ((user + system) * 1000) / markets, databaseSystemMicros: (system * 1000) / markets };
}

/**
 * The database side of one case: the very statements the endpoint runs for this page (one, or two
 * for a frequent search whose title matches end on it), sent as the endpoint sends them: named
 * (prepared) for a listing and a search's few-matches page or walk, unnamed otherwise
 * (lib/catalog/list.ts `listingRunner`). A page's statement answers its markets' ids and row
 * versions; the endpoint reads the columns of a market only when its kept JSON is missing or older
 * (`marketListingJson`), which in a case repeating one page happens on its first request only.
 * Also this process's CPU per page: the driver's share of a request (no HTTP, no key admission).
 */
async function databaseCase(db: Db, direct: postgres.Sql, qs: string): Promise<{ stats: Stats; clientCpuMs: number }> {
  const listQueries = queryStrings(qs).map((text) => parseQuery(listMarketsQuery, new URLSearchParams(text)));
  const dialect = new PgDialect();
  // The total as the endpoint has it (cached there for 15 s): it picks a search's plan.
  const totals: ListTotal[] = [];
  for (const listQuery of listQueries) totals.push(await marketTotal(db, listQuery));
  let next = 0;
  const clientCpuBefore = process.cpuUsage();
  const stats = await load(async () => {
    const at = next++ % listQueries.length;
    const listQuery = listQueries[at] as ListQuery;
    await marketPageVersions(listQuery, async (statement, options) => {
      const { sql, params } = dialect.sqlToQuery(statement);
      return direct.unsafe(sql, params as never[], { prepare: listQuery.query === undefined || options?.named === true });
    }, totals[at]);
    return true;
  });
  const clientCpu = process.cpuUsage(clientCpuBefore);
  return { stats, clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / (stats.n + stats.rps) };
}

/** One execution of a statement under EXPLAIN ANALYZE: the client's round trip and what the server reports. */
interface Anatomy {
  roundTrip: number;
  planning: number;
  execution: number;
  jit: number;
  hit: number;
  read: number;
  workers: number;
}

type PlanNode = { "Shared Hit Blocks"?: number; "Shared Read Blocks"?: number; "Workers Launched"?: number; Plans?: PlanNode[] };

const workersOf = (node: PlanNode): number => (node["Workers Launched"] ?? 0) + (node.Plans ?? []).reduce((sum, child) => sum + workersOf(child), 0);

/**
 * What a case's database time is made of: the statements its first page runs (recorded once, as
 * the endpoint sends them), then replayed back to back by `connections` workers for `seconds`, each
 * as EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, SETTINGS, SUMMARY): planning, execution and JIT as the
 * server measures them, the rest of the client's round trip (wire, parse, queueing for a CPU).
 * TIMING OFF keeps the per-node clock reads out of the execution time.
 */
async function anatomyCase(db: Db, direct: postgres.Sql, name: string, rotated: string): Promise<string[][]> {
  const qs = queryStrings(rotated)[0] ?? rotated;
  const listQuery = parseQuery(listMarketsQuery, new URLSearchParams(qs));
  const dialect = new PgDialect();
  const total = await marketTotal(db, listQuery);
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  await marketPageVersions(listQuery, async (statement) => {
    const { sql, params } = dialect.sqlToQuery(statement);
    if (!sql.startsWith("explain")) statements.push({ sql, params });
    return direct.unsafe(sql, params as never[], { prepare: false });
  }, total);
  const samples: Anatomy[][] = statements.map(() => []);
  await load(async () => {
    for (const [i, { sql, params }] of statements.entries()) {
      const t0 = performance.now();
      // Unnamed: PostgreSQL plans an EXPLAIN's statement on every execution, named or not (so
      // `planning` is what a prepared statement's generic plan no longer pays per request).
      const [row] = await direct.unsafe(`explain (analyze, timing off, buffers, settings, summary, format json) ${sql}`, params as never[], { prepare: false });
      const roundTrip = performance.now() - t0;
      const cell = row?.["QUERY PLAN"];
      const [explained] = (typeof cell === "string" ? JSON.parse(cell) : cell) as Array<{
        Plan: PlanNode;
        "Planning Time": number;
        "Execution Time": number;
        JIT?: { Timing?: { Total?: number } };
      }>;
      if (explained === undefined) return false;
      samples[i]?.push({
        roundTrip,
        planning: explained["Planning Time"],
        execution: explained["Execution Time"],
        jit: explained.JIT?.Timing?.Total ?? 0,
        hit: explained.Plan["Shared Hit Blocks"] ?? 0,
        read: explained.Plan["Shared Read Blocks"] ?? 0,
        workers: workersOf(explained.Plan),
      });
    }
    return true;
  });
  const at = (values: number[], p: number) => percentile([...values].sort((a, b) => a - b), p);
  const both = (values: number[], digits = 1) => `${at(values, 0.5).toFixed(digits)} / ${at(values, 0.95).toFixed(digits)}`;
  return samples.map((runs, i) => [
    i === 0 ? name : "",
    `${i + 1} of ${statements.length}`,
    String(runs.length),
    both(runs.map((r) => r.roundTrip)),
    both(runs.map((r) => r.planning)),
    both(runs.map((r) => r.execution)),
    both(runs.map((r) => r.jit)),
    both(runs.map((r) => r.roundTrip - r.planning - r.execution)),
    both(runs.map((r) => r.hit), 0),
    both(runs.map((r) => r.read), 0),
    String(Math.max(0, ...runs.map((r) => r.workers))),
  ]);
}

/** Writes `count` events (4 markets each) from `firstEvent` on through the ingestion upsert, `workers` writers at once, like concurrent venues. */
async function ingest(db: Parameters<typeof upsertCatalog>[0], firstEvent: number, count: number, progress: boolean): Promise<number> {
  const perBatch = 2500;
  let next = firstEvent;
  const end = firstEvent + count;
  const t0 = performance.now();
  let lastReport = t0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (;;) {
        const first = next;
        if (first >= end) return;
        next += perBatch;
        await upsertCatalog(db, makeBatch(first, Math.min(perBatch, end - first)));
        if (progress && performance.now() - lastReport > 10_000) {
          lastReport = performance.now();
          process.stderr.write(`  seeded ${(Math.min(next, end) * MARKETS_PER_EVENT).toLocaleString("en")} markets\n`);
        }
      }
    }),
  );
  return (count * MARKETS_PER_EVENT) / ((performance.now() - t0) / 1000);
}

/**
 * Markets of the base catalog read back as a poll would send them: the events `bench-ev-E` for E =
 * `offset`, `offset` + stride, ... spread evenly over the whole catalog (not the pages a run just
 * wrote), with every market of each and the prices and volumes the database holds now. Re-sent as
 * they are, nothing about them changed. The seed's order of events over its writers is not
 * reproducible, so the rows come from the database, not from the generator.
 */
async function settledBatch(direct: postgres.Sql, events: number, markets: number, offset: number): Promise<NormalizedEvent[]> {
  const wanted = Math.floor(markets / MARKETS_PER_EVENT);
  const stride = Math.floor(events / wanted);
  const names = Array.from({ length: wanted }, (_, k) => `bench-ev-${offset + k * stride}`);
  const eventRows = await direct<
    Array<{ id: string; venue: string; venue_event_id: string; title: string; slug: string | null; description: string | null; category: string;
      venue_category: string | null; tags: string[]; image: string | null; url: string | null; closed: boolean; resolution_date: Date | null;
      volume24h: number; volume: number | null }>
  >`select e.id, e.venue, e.venue_event_id, e.title, e.slug, e.description, e.category, e.venue_category, e.tags, e.image, e.url,
      e.closed, e.resolution_date, q.volume24h, q.volume
    from events as e join event_quotes as q on q.id = e.id where e.venue_event_id = any(${names}::text[])`;
  const marketRows = await direct<
    Array<{ id: string; event_id: string; venue: string; venue_market_id: string; title: string; slug: string | null; description: string | null;
      category: string; outcome_ids: string[]; status: string | null; closed: boolean; resolution_date: Date | null; contract_address: string | null;
      url: string | null; image: string | null; quote: Array<{ outcomeId: string; label: string; price: number; priceChange24h: number }>;
      volume24h: number; volume: number | null; liquidity: number | null; open_interest: number | null }>
  >`select m.id, m.event_id, m.venue, m.venue_market_id, m.title, m.slug, m.description, m.category, m.outcome_ids, m.status, m.closed,
      m.resolution_date, m.contract_address, m.url, m.image, q.outcomes as quote, q.volume24h, q.volume, q.liquidity, q.open_interest
    from markets as m join market_quotes as q on q.id = m.id where m.event_id = any(${eventRows.map((e) => e.id)}::uuid[])
    order by m.event_id, m.venue_market_id`;
  const now = new Date();
  const byEvent = new Map<string, NormalizedEvent["markets"]>();
  for (const m of marketRows) {
    const list = byEvent.get(m.event_id) ?? [];
    list.push({
      id: m.id,
      eventId: m.event_id,
      venue: m.venue,
      venueMarketId: m.venue_market_id,
      title: m.title,
      slug: m.slug,
      description: m.description,
      category: m.category,
      outcomes: m.quote.map((o) => ({ outcomeId: o.outcomeId, label: o.label, price: o.price, priceChange24h: o.priceChange24h })),
      outcomeIds: m.outcome_ids,
      volume24h: m.volume24h,
      volume: m.volume,
      liquidity: m.liquidity,
      openInterest: m.open_interest,
      status: m.status,
      closed: m.closed,
      resolutionDate: m.resolution_date,
      contractAddress: m.contract_address,
      url: m.url,
      image: m.image,
      lastSeenAt: now,
    });
    byEvent.set(m.event_id, list);
  }
  return eventRows.map((e) => ({
    event: {
      id: e.id,
      venue: e.venue,
      venueEventId: e.venue_event_id,
      title: e.title,
      slug: e.slug,
      description: e.description,
      category: e.category,
      venueCategory: e.venue_category,
      tags: e.tags,
      image: e.image,
      url: e.url,
      volume24h: e.volume24h,
      volume: e.volume,
      closed: e.closed,
      resolutionDate: e.resolution_date,
      lastSeenAt: now,
    },
    markets: byEvent.get(e.id) ?? [],
  }));
}

/** Re-ingests `batch` in order, one writer, and returns markets/s. */
async function reingest(db: Parameters<typeof upsertCatalog>[0], batch: NormalizedEvent[]): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < batch.length; i += 2500) await upsertCatalog(db, batch.slice(i, i + 2500));
  return (batch.length * MARKETS_PER_EVENT) / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const kept = values.database !== "";
  if (kept && !/^[a-z_][a-z0-9_]{0,62}$/.test(values.database)) throw new Error("--database must be a plain lower-case identifier");
  const database = kept ? values.database : `brier_bench_catalog_${process.pid}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  const exists = (await admin`select 1 from pg_database where datname = ${database}`).length > 0;
  if (!exists) await admin.unsafe(`create database ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  console.log(
    `bench:catalog — ${totalMarkets.toLocaleString("en")} markets in ${(totalMarkets / MARKETS_PER_EVENT).toLocaleString("en")} events, ` +
      `PostgreSQL ${database}${exists ? " (kept from an earlier run)" : ""}, ${connections} connections, ${seconds} s per case`,
  );
  console.log(loadLine("at start"));
  const handle = await openDatabase({ url: databaseUrl });
  const direct = postgres(databaseUrl, { max: connections, onnotice: () => undefined });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let loadEnded: { from: number; to: number } | undefined;
  try {
    const events = totalMarkets / MARKETS_PER_EVENT;
    // The base catalog: seeded once (a kept database already holds it).
    const [{ n: present } = { n: 0 }] = await direct<{ n: number }[]>`select count(*)::int as n from markets`;
    if (present !== 0 && present !== totalMarkets) throw new Error(`${database} holds ${present} markets, not ${totalMarkets}: drop it or pass its --markets`);
    if (present === 0) {
      const seedRate = await ingest(handle.db, 0, events, true);
      await direct.unsafe("vacuum analyze");
      console.log(`\nseed (insert path, empty catalog): ${Math.round(seedRate).toLocaleString("en")} markets/s  (${totalMarkets.toLocaleString("en")}, ${workers} writers, batches of 1,000)`);
    }

    if (values["plans-only"]) {
      for (const [name, qs] of await benchCases(direct)) await printPlan(handle.db, direct, name, qs);
      return;
    }

    // The write cases, on 100,000 markets more (25,000 events past the base), deleted afterwards so
    // a kept database stays the same catalog. First inserts into a catalog of `totalMarkets`:
    if (values.anatomy) {
      const rows: string[][] = [];
      for (const [name, qs] of await benchCases(direct)) rows.push(...(await anatomyCase(handle.db, direct, name, qs)));
      console.log(`\nwhat the database time is made of (ms; p50 / p95 over every execution, EXPLAIN (ANALYZE, TIMING OFF, BUFFERS, SUMMARY) under load):`);
      printTable(["case", "statement", "n", "round trip", "planning", "execution", "jit", "rest (wire, queue)", "shared hit", "shared read", "workers"], rows);
      console.log(loadLine("at end"));
      return;
    }

    const extra = values["skip-writes"] ? 0 : 25_000;
    const none: WriteRate = { rate: Number.NaN, clientMicros: Number.NaN, databaseMicros: Number.NaN, databaseSystemMicros: Number.NaN };
    // The inserts and the re-polls below draw the same numbers (venues among them, which make the
    // ids): without this reset, after a seed in the same run, the re-polls named other events, so
    // "unchanged" measured inserts and the final delete left the inserted markets behind.
    seed = 0x5eed;
    const insert = extra === 0 ? none : await measured(direct, extra * MARKETS_PER_EVENT, async () => void (await ingest(handle.db, events, extra, false)));
    // Re-ingestion of the same 100,000 markets, as the next poll of unchanged venues sends them
    // (same data, a later poll time): unchanged rows are skipped, not rewritten.
    seed = 0x5eed;
    const again = makeBatch(events, extra);
    const update = extra === 0 ? none : await measured(direct, extra * MARKETS_PER_EVENT, async () => void (await reingest(handle.db, again)));
    // The same markets with every 24h volume and price moved (a busy poll: every quote rewritten).
    const moved = again.map((e) => ({
      event: e.event,
      markets: e.markets.map((m) => ({
        ...m,
        volume24h: (m.volume24h ?? 0) + 1,
        outcomes: m.outcomes.map((o) => ({ ...o, price: Math.round((1 - o.price) * 1000) / 1000 })),
      })),
    }));
    const changed = extra === 0 ? none : await measured(direct, extra * MARKETS_PER_EVENT, async () => void (await reingest(handle.db, moved)));
    // The same markets again with every 24h volume doubled: past the rank step
    // (lib/catalog/store.ts RANK_STEP), so every market's rank keys, its row and its indexes are
    // rewritten too. The worst poll, for the record: a real poll moves few ranks that far.
    const reranked = moved.map((e) => ({
      event: e.event,
      markets: e.markets.map((m) => ({ ...m, volume24h: (m.volume24h ?? 0) * 2 + 20 })),
    }));
    const reranked_ = extra === 0 ? none : await measured(direct, extra * MARKETS_PER_EVENT, async () => void (await reingest(handle.db, reranked)));
    const [insertRate, updateRate, changedRate, rerankedRate] = [insert.rate, update.rate, changed.rate, reranked_.rate];
    const extraIds = again.map((e) => e.event.id ?? "");
    await direct`delete from events where id = any(${extraIds}::uuid[])`; // markets and quotes cascade
    if (extra !== 0) await direct.unsafe("vacuum analyze");
    // A re-poll of markets that have sat in the catalog since its seed ("settled"): what a venue's
    // next full poll sends for most of a 1M catalog, whose rows the cases above never touch (they
    // re-poll the 100,000 they just wrote, still cached). Two disjoint samples spread over the whole
    // catalog, both read back first: one re-sent as it is, the other with every price flipped and
    // every total volume moved (not the 24h volume: a rank key, which repeated runs would push past
    // its step). The catalog stays the same size; the changed sample keeps its new prices.
    const settledRuns = extra === 0 || settledMarkets === 0 ? 0 : settledMarkets;
    const sameSettled = settledRuns === 0 ? [] : await settledBatch(direct, events, settledRuns, 0);
    const movedSettled = (settledRuns === 0 ? [] : await settledBatch(direct, events, settledRuns, Math.floor(events / (settledRuns / MARKETS_PER_EVENT) / 2))).map(
      (e) => ({
        event: e.event,
        markets: e.markets.map((m) => ({
          ...m,
          volume: (m.volume ?? 0) + 1,
          outcomes: m.outcomes.map((o) => ({ ...o, price: Math.round((1 - o.price) * 1000) / 1000 })),
        })),
      }),
    );
    const count = (batch: NormalizedEvent[]) => batch.reduce((n, e) => n + e.markets.length, 0);
    const settledSame = settledRuns === 0 ? none : await measured(direct, count(sameSettled), async () => void (await reingest(handle.db, sameSettled)));
    const settledMoved = settledRuns === 0 ? none : await measured(direct, count(movedSettled), async () => void (await reingest(handle.db, movedSettled)));
    console.log(
      `\nupsert (first inserts): ${Math.round(insertRate).toLocaleString("en")} markets/s  (100,000 new markets into ${totalMarkets.toLocaleString("en")}, ${workers} writers, batches of 1,000)`,
    );
    console.log(`upsert (re-ingest, unchanged): ${Math.round(updateRate).toLocaleString("en")} markets/s  (the same 100,000, same data a poll later, 1 writer)`);
    console.log(
      `upsert (re-ingest, every row changed): ${Math.round(changedRate).toLocaleString("en")} markets/s  (the same 100,000 with new volume and prices; unchanged/changed = ${(updateRate / changedRate).toFixed(2)}x in this run)`,
    );
    console.log(
      `upsert (re-ingest, every rank moved): ${Math.round(rerankedRate).toLocaleString("en")} markets/s  (the same 100,000 with every 24h volume doubled: rank keys rewritten too)`,
    );
    console.log(
      `upsert (settled re-poll, unchanged): ${Math.round(settledSame.rate).toLocaleString("en")} markets/s  (${count(sameSettled).toLocaleString("en")} markets of the base catalog, spread over it, read back and re-sent as they are, 1 writer)`,
    );
    console.log(
      `upsert (settled re-poll, every price changed): ${Math.round(settledMoved.rate).toLocaleString("en")} markets/s  (${count(movedSettled).toLocaleString("en")} other markets of the base catalog with every price flipped and their total volume moved, 1 writer)`,
    );
    console.log(
      `bench process CPU per market (the writer's share; insert includes generating the batches): insert ${insert.clientMicros.toFixed(1)} µs, ` +
        `unchanged ${update.clientMicros.toFixed(1)} µs, every price changed ${changed.clientMicros.toFixed(1)} µs, every rank moved ${reranked_.clientMicros.toFixed(1)} µs, ` +
        `settled unchanged ${settledSame.clientMicros.toFixed(1)} µs, settled changed ${settledMoved.clientMicros.toFixed(1)} µs`,
    );
    const dbCpu = (r: WriteRate) => `${r.databaseMicros.toFixed(1)} µs (system ${r.databaseSystemMicros.toFixed(1)})`;
    console.log(
      `database CPU per market (this database's backends; of it the kernel's): insert ${dbCpu(insert)}, unchanged ${dbCpu(update)}, ` +
        `every price changed ${dbCpu(changed)}, every rank moved ${dbCpu(reranked_)}, settled unchanged ${dbCpu(settledSame)}, settled changed ${dbCpu(settledMoved)}`,
    );
    const bound = (r: WriteRate) => Math.round(2e6 / (r.clientMicros + r.databaseMicros)).toLocaleString("en");
    console.log(
      `two cores' bound, 2 / (writer + database CPU): insert ${bound(insert)}/s, unchanged ${bound(update)}/s, every price changed ${bound(changed)}/s, ` +
        `every rank moved ${bound(reranked_)}/s, settled unchanged ${bound(settledSame)}/s, settled changed ${bound(settledMoved)}/s`,
    );
    if (values["writes-only"]) {
      console.log(loadLine("at end"));
      return;
    }
    if (values["database-only"]) {
      const rows: string[][] = [];
      for (const [name, qs, target] of await benchCases(direct)) {
        const { stats: db } = await databaseCase(handle.db, direct, qs);
        const verdict = target === "search" ? (db.p95 <= 12 ? "<= 12 ms (PASS)" : "> 12 ms") : "";
        rows.push([name, db.p50.toFixed(1), db.p95.toFixed(1), db.p99.toFixed(1), db.rps.toFixed(0), verdict]);
      }
      console.log(`\nthe endpoint's statements on the database (ms):`);
      printTable(["case", "db p50", "db p95", "db p99", "db q/s", "search target"], rows);
      console.log(loadLine("at end"));
      return;
    }

    const email = `bench-catalog-${Date.now()}@example.test`;
    const { account } = await ensureAccount(handle.db, email);
    await setPlan(handle.db, email, "enterprise");
    const { key } = await createApiKey(handle.db, account.id, "bench");

    server = await startServer({
      port,
      nodeArgs: profileDir === "" ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
      env: {
        DATABASE_URL: databaseUrl,
        DATA_DIR: `/tmp/brier-bench-catalog-${process.pid}`,
        BACKGROUND_JOBS: "false",
        LOG_LEVEL: "warn",
        RATE_LIMIT_ENTERPRISE: "1000000000",
        // Required with DATABASE_URL (lib/config); any value serves a bench's single instance.
        NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
      },
    });
    const cases = await benchCases(direct);
    const rows: string[][] = [];
    const verdicts: string[] = [];
    // The server's first seconds (JIT, first connections, first totals) are not the steady state:
    // every case's URL is requested for a few seconds before anything is measured.
    const warmUntil = performance.now() + 5_000;
    while (performance.now() < warmUntil) {
      for (const [, qs] of cases) {
        if (qs.startsWith("offset=")) continue; // 0.5 s a request: it would take the whole warm-up
        for (const text of queryStrings(qs)) {
          const res = await fetch(`${server.url}/v0/markets?${text}`, { headers: { authorization: `Bearer ${key}` } });
          await res.arrayBuffer();
        }
      }
    }
    const loadStarted = monotonicMicros();
    const cpuPerRequest: string[] = [];
    const clientCpuPerPage: string[] = [];
    for (const [name, qs, target] of cases) {
      const cpuBefore = processCpuMs(server.pid);
      const texts = queryStrings(qs);
      let next = 0;
      const endpoint = await load(async () => {
        const res = await fetch(`${server?.url}/v0/markets?${texts[next++ % texts.length]}`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        return res.status === 200;
      });
      const cpuAfter = processCpuMs(server.pid);
      // Server CPU per request over warm-up and measurement (load() runs 1 s of warm-up first).
      const served = endpoint.n + endpoint.rps * 1;
      const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / served;
      cpuPerRequest.push(`${name}: ${cpuMs === undefined ? "n/a" : cpuMs.toFixed(2)} ms`);
      if (name === "default listing" && cpuMs !== undefined) {
        verdicts.push(`${name}: server CPU ${cpuMs.toFixed(2)} ms per request ${cpuMs <= 0.5 ? "<= 0.5 ms (PASS)" : "> 0.5 ms"}`);
      }
      if (values.plans) await printPlan(handle.db, direct, name, qs);
      const { stats: db, clientCpuMs } = await databaseCase(handle.db, direct, qs);
      clientCpuPerPage.push(`${name}: ${clientCpuMs.toFixed(2)} ms`);
      const ratio = endpoint.p95 / db.p95;
      rows.push([
        name,
        endpoint.p50.toFixed(1),
        endpoint.p95.toFixed(1),
        endpoint.p99.toFixed(1),
        endpoint.rps.toFixed(0),
        db.p50.toFixed(1),
        db.p95.toFixed(1),
        db.p99.toFixed(1),
        db.rps.toFixed(0),
        ratio.toFixed(2),
        String(endpoint.failures),
      ]);
      const pass = (ok: boolean) => (ok ? " (PASS)" : "");
      if (target === "listing") {
        verdicts.push(`${name}: endpoint p95 ${endpoint.p95.toFixed(1)} ms ${endpoint.p95 <= 4 ? "<=" : ">"} 4 ms${pass(endpoint.p95 <= 4)}`);
      }
      if (target === "search") {
        verdicts.push(`${name}: database p95 ${db.p95.toFixed(1)} ms ${db.p95 <= 12 ? "<=" : ">"} 12 ms${pass(db.p95 <= 12)}`);
      }
      if (target !== undefined) {
        verdicts.push(`${name}: endpoint/database p95 ${ratio.toFixed(2)} ${ratio <= 1.5 ? "<=" : ">"} 1.5${pass(ratio <= 1.5)}`);
      }
    }
    // The floor every keyed route pays (key lookup, rate limit, usage, Next routing): GET /v0/account.
    const floorCpuBefore = processCpuMs(server.pid);
    const floor = await load(async () => {
      const res = await fetch(`${server?.url}/v0/account`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      return res.status === 200;
    });
    const floorCpuAfter = processCpuMs(server.pid);
    cpuPerRequest.push(
      `floor GET /v0/account: ${floorCpuBefore === undefined || floorCpuAfter === undefined ? "n/a" : ((floorCpuAfter - floorCpuBefore) / (floor.n + floor.rps)).toFixed(2)} ms`,
    );
    loadEnded = { from: loadStarted, to: monotonicMicros() };
    rows.push(["floor: GET /v0/account (keyed, no catalog)", floor.p50.toFixed(1), floor.p95.toFixed(1), floor.p99.toFixed(1),
      floor.rps.toFixed(0), "", "", "", "", "", String(floor.failures)]);
    const header = ["case", "p50", "p95", "p99", "req/s", "db p50", "db p95", "db p99", "db q/s", "p95 ratio", "fail"];
    console.log(`\nGET /v0/markets over loopback (ms) vs the same SQL on the database (baseline, same run):`);
    printTable(header, rows);
    console.log(`\nserver CPU per request (user+system, load-independent): ${cpuPerRequest.join("; ")}`);
    console.log(`\nbench process CPU per page of the database case (the page's statements through the driver, no HTTP): ${clientCpuPerPage.join("; ")}`);
    console.log(`\n${verdicts.join("\n")}`);
    const rate = (name: string, value: number) =>
      console.log(`${name}: ${Math.round(value).toLocaleString("en")} markets/s ${value >= 50_000 ? ">= 50,000 (PASS)" : "< 50,000"}`);
    rate("upsert (insert)", insertRate);
    rate("re-ingest of unchanged markets", updateRate);
    rate("re-ingest with every price and volume changed", changedRate);
    console.log(memoryReport([{ label: "server", pid: server.pid }]));
    console.log(loadLine("at end"));
  } finally {
    await server?.stop();
    if (profileDir !== "") {
      const file = newestProfile(profileDir);
      if (file !== undefined) console.log(`\n${summarizeProfile(file, loadEnded)}`);
    }
    await direct.end({ timeout: 5 });
    await handle.close();
    if (values["keep-database"] || kept) console.log(`database kept: ${databaseUrl}`);
    else await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
