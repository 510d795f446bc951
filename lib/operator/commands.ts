import "server-only";
import { parseArgs } from "node:util";
import { ensureAccount, findAccountByEmail, generatePassword, setOperator, setPassword, setPlan } from "@/lib/auth/accounts";
import { createApiKey, listApiKeys, revokeApiKeysByPrefix } from "@/lib/auth/api-keys";
import { isPlan, type Plan } from "@/lib/auth/plans";
import type { IngestProgress } from "@/lib/catalog/ingest";
import { sql } from "drizzle-orm";
import { describeDatabase, getDatabase, getDb, resultRows } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getTickStores } from "@/lib/ticks";
import { demoOperator, hasDemoCatalog, hasDemoHistory } from "./demo";
import { UsageError } from "./usage-error";

// The catalog poll, matching and the demo history load large libraries (venue SDKs, the matching
// vocabularies): imported by the commands that use them, so `create-key` or `set-plan` start fast.
const catalogJobs = () => Promise.all([import("@/lib/jobs/catalog"), import("@/lib/venues/factory")]);
const matchingEngine = () => import("@/lib/matching/engine");
const demoHistory = () => Promise.all([import("@/lib/demo/ticks"), import("@/lib/history/prices"), import("@/lib/demo/quotes"), import("@/lib/demo/resolutions")]);

/**
 * The admin commands (README, "Admin CLI"), one table for both ways they run: in the CLI's own
 * process when no server holds the embedded stores, and inside the running server when the CLI
 * sends them over the admin channel (./channel.ts). Each command talks only through `AdminIo`, so
 * both ways print the same lines: messages for a person (`say`, the CLI's stderr) and results for a
 * script (`out`, the CLI's stdout).
 */

export { UsageError };

export interface AdminIo {
  say(message: string): void;
  out(result: string): void;
  /** The command's standard input (set-password reads the password from it). */
  readInput(): Promise<string>;
  /** Ingest progress; by default one message per venue phase. */
  onIngestProgress?: (progress: IngestProgress) => void;
}

type Options = Record<string, string | boolean | Array<string | boolean> | undefined>;

interface Command {
  usage: string;
  summary: string;
  options: Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
  run: (options: Options, io: AdminIo) => Promise<void>;
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

function planOption(options: Options): Plan {
  const plan = required(options, "plan");
  if (!isPlan(plan)) throw new UsageError(`--plan must be one of free, pro, enterprise (got '${plan}')`);
  return plan;
}

/** How a person signs in with an account the CLI made without a password (README, "Admin CLI"). */
export function passwordHint(email: string): string {
  return `It has no password yet, so it cannot sign in to the dashboard: set one with
  printf '%s\\n' 'a new password of 10+ characters' | npm run --silent admin -- set-password --email ${email}
or let the CLI choose one and print it:
  npm run --silent admin -- set-password --email ${email} --generate
(the operator can also set it on the dashboard's Accounts page).`;
}

/**
 * Writes the demo history for the mock venue's markets: ticks, the hourly price history, the
 * journal entry, and the SYNTHETIC resolutions of the markets the history closes (docs/outcomes.md,
 * "The offline demo"). A market an earlier run closed is not simulated again: its book and quote
 * stay as they were at its close.
 */
async function demoTicks(days: number, io: AdminIo): Promise<void> {
  const [{ demoMarketsFromCatalog, recordDemoRun, writeDemoTicks }, { insertPriceSnapshots }, { closedMarketQuotes, pollDemoCatalog, quotesFromSamples }, { closedDemoMarkets, DEMO_RESOLVE_SHARE, recordDemoResolutions }] =
    await demoHistory();
  const db = await getDb();
  const catalogMarkets = await demoMarketsFromCatalog(db, "mock");
  if (catalogMarkets.length === 0) throw new AppError("not_found", "The catalog has no mock-venue markets: run `admin -- ingest --venue mock` first.");
  const closed = await closedDemoMarkets(db, "mock", catalogMarkets);
  const markets = catalogMarkets.filter((market) => !closed.has(market.conditionId));
  io.say(`Writing ${days} day(s) of synthetic ticks for ${markets.length} mock market(s)${closed.size > 0 ? ` (${closed.size} closed by an earlier run stay as they closed)` : ""}…`);
  const stores = await getTickStores();
  let prices = 0;
  // The last day of samples (and a margin): enough for each outcome's price now and 24 hours ago.
  const now = Date.now();
  const recent: Array<{ atMs: number; outcomeId: string; price: number }> = [];
  const result = await writeDemoTicks(stores.writer, markets, {
    days,
    now,
    resolveShare: DEMO_RESOLVE_SHARE,
    onProgress: (done, total, rows) => io.say(`  ${done}/${total} markets, ${rows} rows`),
    // The catalog poll's price history, drawn from the same books, so the price charts and the
    // order-book history of a market page tell one story.
    onPrices: async (samples) => {
      const snapshots = samples.flatMap((sample) =>
        sample.market.marketId === undefined
          ? []
          : [{ atMs: sample.atMs, venue: "mock", marketId: sample.market.marketId, outcomeId: sample.outcomeId, price: sample.price, bestBid: sample.bestBid, bestAsk: sample.bestAsk, volume24h: null }],
      );
      await insertPriceSnapshots(stores, snapshots);
      prices += snapshots.length;
      for (const sample of samples) if (sample.atMs >= now - 90_000_000) recent.push(sample);
    },
  });
  await recordDemoRun(db, result);
  const changes = await recordDemoResolutions(db, stores.writer, "mock", result.resolutions, now);
  const results = result.resolutions.map((r) => r.result);
  io.say(
    `SYNTHETIC resolutions (docs/outcomes.md): ${result.resolutions.length} market(s) closed by their price paths (${results.filter((r) => r === "yes").length} Yes, ${results.filter((r) => r === "no").length} No, ${results.filter((r) => r === "split").length} 50-50), ${changes.length} change(s) recorded`,
  );
  // The catalog's prices and 24-hour changes from the same books (README, "Quick start"), through the catalog poll's own path.
  const quotes = quotesFromSamples(recent);
  for (const [outcomeId, quote] of await closedMarketQuotes(stores, catalogMarkets.filter((market) => closed.has(market.conditionId)), now)) quotes.set(outcomeId, quote);
  const poll = await pollDemoCatalog(db, quotes);
  if (poll.outcome !== "succeeded") throw new AppError("internal_error", `The demo's catalog poll failed: ${poll.error ?? poll.outcome}`);
  const { writeDemoPair } = await import("@/lib/demo/pair");
  io.say(`SYNTHETIC cross-venue demo pair (docs/spreads.md): ${JSON.stringify(await writeDemoPair(db, stores, { days, now }))}`);
  io.out(
    `markets=${result.markets}\trows=${result.rows}\tprices=${prices}\tresolved=${result.resolutions.length}\t${Object.entries(result.byEventType)
      .map(([type, n]) => `${type}=${n}`)
      .join("\t")}`,
  );
}

/** A command run as a step of another: its results become messages (stdout stays the caller's). */
const quiet = (io: AdminIo): AdminIo => ({ ...io, out: io.say });

const commands: Record<string, Command> & Record<"ingest" | "demo-ticks", Command> = {
  "create-key": {
    usage: "create-key --email <e> --plan <free|pro|enterprise> [--name <n>] [--operator]",
    summary: "create the account if needed, set its plan, print a new API key (stdout: the key only); --operator: the account may use the dashboard's Accounts page",
    options: { email: { type: "string" }, plan: { type: "string" }, name: { type: "string" }, operator: { type: "boolean" } },
    async run(options, io) {
      const plan = planOption(options);
      const email = required(options, "email");
      const db = await getDb();
      const { account, created } = await ensureAccount(db, email);
      if (created) io.say(`Created account ${account.email}.`);
      if (account.plan !== plan) await setPlan(db, email, plan);
      if (options.operator === true) {
        await setOperator(db, email, true);
        io.say(`${account.email} is an operator: the dashboard shows it the Accounts page.`);
      }
      const name = typeof options.name === "string" ? options.name : "default";
      const key = await createApiKey(db, account.id, name);
      io.say(`Created key '${key.name}' (${key.prefix}…) for ${account.email} on the ${plan} plan. It is shown only once.`);
      if (!account.hasPassword) io.say(passwordHint(account.email));
      io.out(key.key);
    },
  },
  "set-plan": {
    usage: "set-plan --email <e> --plan <free|pro|enterprise>",
    summary: "change an account's plan",
    options: { email: { type: "string" }, plan: { type: "string" } },
    async run(options, io) {
      const account = await setPlan(await getDb(), required(options, "email"), planOption(options));
      io.say(`${account.email} is now on the ${account.plan} plan.`);
      io.out(account.plan);
    },
  },
  operator: {
    usage: "operator --email <e> [--revoke]",
    summary: "let an account use the dashboard's Accounts page (plans, keys and passwords of every account); --revoke takes it back",
    options: { email: { type: "string" }, revoke: { type: "boolean" } },
    async run(options, io) {
      const account = await setOperator(await getDb(), required(options, "email"), options.revoke !== true);
      io.say(`${account.email} ${account.operator ? "is an operator" : "is no longer an operator"}.`);
      io.out(String(account.operator));
    },
  },
  "list-keys": {
    usage: "list-keys --email <e>",
    summary: "list an account's keys (prefix, name, created, last used, revoked) as tab-separated lines",
    options: { email: { type: "string" } },
    async run(options, io) {
      const db = await getDb();
      const account = await findAccountByEmail(db, required(options, "email"));
      if (account === undefined) throw new AppError("not_found", `No account with email ${String(options.email)}.`);
      const keys = await listApiKeys(db, account.id);
      io.say(`${keys.length} key(s) for ${account.email} (${account.plan} plan).`);
      if (keys.length > 0) io.out(["prefix", "name", "created_at", "last_used_at", "revoked_at"].join("\t"));
      for (const key of keys) {
        io.out([key.prefix, key.name, key.createdAt.toISOString(), key.lastUsedAt?.toISOString() ?? "-", key.revokedAt?.toISOString() ?? "-"].join("\t"));
      }
    },
  },
  "revoke-key": {
    usage: "revoke-key --prefix <brier_live_xxxxxxxx>",
    summary: "revoke the key with this visible prefix (takes effect on its next request)",
    options: { prefix: { type: "string" } },
    async run(options, io) {
      const revoked = await revokeApiKeysByPrefix(await getDb(), required(options, "prefix"));
      if (revoked.length === 0) throw new AppError("not_found", `No active key has the prefix ${String(options.prefix)}.`);
      for (const key of revoked) {
        io.say(`Revoked '${key.name}' (${key.prefix}…).`);
        io.out(key.prefix);
      }
    },
  },
  "set-password": {
    usage: "set-password --email <e> [--generate]   (the password is read from stdin; --generate: chosen and printed on stdout)",
    summary: "set an account's password, read from standard input, or --generate one and print it",
    options: { email: { type: "string" }, generate: { type: "boolean" } },
    async run(options, io) {
      const email = required(options, "email");
      const generated = options.generate === true ? generatePassword() : undefined;
      const password = generated ?? (await io.readInput()).replace(/\r?\n$/, "");
      const account = await setPassword(await getDb(), email, password);
      io.say(`Password set for ${account.email}: it can sign in to the dashboard.`);
      if (generated !== undefined) io.out(generated);
    },
  },
  ingest: {
    usage: "ingest [--venue <key>]...",
    summary: "poll venues into the catalog now (default: every catalog venue), with progress on stderr",
    options: { venue: { type: "string", multiple: true } },
    async run(options, io) {
      const [{ ingestCatalog }, { buildableExchanges }] = await catalogJobs();
      const venues = Array.isArray(options.venue) ? options.venue.map(String) : undefined;
      const unknown = venues?.filter((venue) => !buildableExchanges.includes(venue)) ?? [];
      if (unknown.length > 0) throw new UsageError(`unknown venue ${unknown.join(", ")}; one of: ${buildableExchanges.join(", ")}`);
      const phases = new Map<string, string>();
      const onProgress =
        io.onIngestProgress ??
        ((p: IngestProgress) => {
          if (phases.get(p.venue) === p.phase) return;
          phases.set(p.venue, p.phase);
          io.say(`${p.venue} ${p.phase}`);
        });
      const runs = await ingestCatalog(await getDb(), { venues, trigger: "cli", onProgress });
      for (const run of runs) {
        const detail = run.outcome === "failed" ? ` error: ${run.error ?? "unknown"}` : "";
        io.out(`${run.venue}\t${run.outcome}\tevents=${run.eventsSeen}\tmarkets=${run.marketsSeen}\tclosed=${run.marketsClosed}\t${run.durationMs}ms${detail}`);
      }
      if (runs.some((run) => run.outcome === "failed")) throw new AppError("service_unavailable", "Some venues failed; see above.");
    },
  },
  match: {
    usage: "match [--full]",
    summary: "cross-venue matching over new and changed markets (--full: every market), progress on stderr",
    options: { full: { type: "boolean" } },
    async run(options, io) {
      const { runMatching } = await matchingEngine();
      const summary = await runMatching(await getDb(), {
        full: options.full === true,
        onProgress: (p) => io.say(`matching ${p.phase} ${p.total === undefined ? p.done : `${p.done}/${p.total}`}`),
      });
      io.out(
        `${summary.mode}\tmarkets=${summary.marketsIndexed}\tread=${summary.marketsRead}\tcompared=${summary.pairsCompared}\tmatches=${summary.matchesFound}\topened=${summary.opened}\tconfirmed=${summary.confirmed}\tclosed=${summary.closed}\t${summary.durationMs}ms`,
      );
    },
  },
  "demo-ticks": {
    usage: "demo-ticks [--days N]",
    summary: "write a SYNTHETIC order-book and price history for the mock venue's markets (offline demos only; see docs/ticks.md)",
    options: { days: { type: "string" } },
    async run(options, io) {
      const days = options.days === undefined ? 7 : Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 90) throw new UsageError("--days must be an integer from 1 to 90");
      await demoTicks(days, io);
    },
  },
  "demo-setup": {
    usage: "demo-setup [--days N]",
    summary: "what `npm run demo` does before it starts the server: the mock catalog, demo-ticks, an operator with a password and an enterprise key; reuses what an earlier run made (stdout: one JSON line with the credentials)",
    options: { days: { type: "string" } },
    async run(options, io) {
      const db = await getDb();
      if (await hasDemoCatalog(db)) io.say("The mock catalog is there already.");
      else await commands.ingest.run({ venue: ["mock"] }, quiet(io));
      // `demo-ticks` is the one entry of the demo's history: whatever it writes, the demo has.
      if (await hasDemoHistory(db)) io.say("The demo history is there already (run `admin demo-ticks` to write more).");
      else await commands["demo-ticks"].run({ days: typeof options.days === "string" ? options.days : "7" }, quiet(io));
      const { credentials, reused } = await demoOperator(db);
      io.say(reused ? `Reusing the demo operator ${credentials.email}.` : `Created the demo operator ${credentials.email} (enterprise plan, operator).`);
      io.out(JSON.stringify({ email: credentials.email, password: credentials.password, key: credentials.key }));
    },
  },
  migrate: {
    usage: "migrate",
    summary: "apply pending PostgreSQL migrations and ClickHouse DDL",
    options: {},
    async run(_options, io) {
      // What this process found pending and applied when it opened the stores (a running server applies them at its start).
      const database = await getDatabase();
      const applied = database.migrationsApplied ?? [];
      const [tables] = resultRows<{ n: number | string }>(await database.db.execute(sql`select count(*) as n from information_schema.tables where table_schema = 'public'`));
      io.say(
        applied.length === 0
          ? `PostgreSQL (${describeDatabase()}): up to date, nothing applied; ${Number(tables?.n ?? 0)} tables.`
          : `PostgreSQL (${describeDatabase()}): applied ${applied.length} migration(s), ${applied.join(", ")}; ${Number(tables?.n ?? 0)} tables now.`,
      );
      const ddl = (await getTickStores()).ddlApplied ?? [];
      io.say(ddl.length === 0 ? "ClickHouse: up to date, no DDL applied." : `ClickHouse: applied DDL ${ddl.join(", ")}.`);
      io.out(`postgres_applied=${applied.length}\tclickhouse_applied=${ddl.length}`);
    },
  },
};

export function adminHelp(): string {
  const lines = Object.values(commands).map((command) => `  ${command.usage}\n      ${command.summary}`);
  return `Usage: npm run --silent admin -- <command> [options]\n\nCommands:\n${lines.join("\n")}`;
}

/** Is `name` an admin command? (The CLI checks before it chooses where to run it.) */
export function isAdminCommand(name: string | undefined): boolean {
  return name !== undefined && Object.hasOwn(commands, name);
}

/**
 * Runs one admin command line; returns the exit code: 0 done, 1 failed (the message said why),
 * 2 a usage error. Never throws.
 */
export async function runAdminCommand(argv: readonly string[], io: AdminIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.say(adminHelp());
    return name === undefined ? 2 : 0;
  }
  const command = isAdminCommand(name) ? commands[name] : undefined;
  if (command === undefined) {
    io.say(`Unknown command '${name}'.\n\n${adminHelp()}`);
    return 2;
  }
  try {
    const { values } = parseArgs({ args: [...rest], options: command.options, strict: true, allowPositionals: false });
    await command.run(values, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.say(`${(error as Error).message}\nUsage: npm run --silent admin -- ${command.usage}`);
      return 2;
    }
    io.say(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
