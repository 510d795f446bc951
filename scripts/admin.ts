/**
 * Brier's admin CLI: `npm run --silent admin -- <command> [options]`.
 * Works on the embedded stores while the server is stopped, and on configured servers at any
 * time. Messages go to stderr, results to stdout; exit 2 on a usage error, 1 on a failure.
 */
import { parseArgs } from "node:util";
import { ensureAccount, findAccountByEmail, setPassword, setPlan } from "@/lib/auth/accounts";
import { createApiKey, listApiKeys, revokeApiKeysByPrefix } from "@/lib/auth/api-keys";
import { isPlan, type Plan } from "@/lib/auth/plans";
import { ingestCatalog } from "@/lib/jobs/catalog";
import { progressBar } from "./lib/progress";
import { closeDatabase, getDb } from "@/lib/db";
import { runMatching } from "@/lib/matching/engine";
import { buildableExchanges } from "@/lib/venues/factory";
import { AppError } from "@/lib/errors";
import { demoMarketsFromCatalog, writeDemoTicks } from "@/lib/recorder/demo-ticks";
import { writeDemoPair } from "@/lib/spreads/demo-pair";
import { closeTickStores, getTickStores } from "@/lib/ticks";
import { out, readStdin, say, UsageError } from "./lib/cli";

type Options = Record<string, string | boolean | Array<string | boolean> | undefined>;

interface Command {
  usage: string;
  summary: string;
  options: Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
  run: (options: Options) => Promise<void>;
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

const commands: Record<string, Command> = {
  "create-key": {
    usage: "create-key --email <e> --plan <free|pro|enterprise> [--name <n>]",
    summary: "create the account if needed, set its plan, print a new API key (stdout: the key only)",
    options: { email: { type: "string" }, plan: { type: "string" }, name: { type: "string" } },
    async run(options) {
      const plan = planOption(options);
      const email = required(options, "email");
      const db = await getDb();
      const { account, created } = await ensureAccount(db, email);
      if (created) say(`Created account ${account.email} (no password: set one with set-password).`);
      if (account.plan !== plan) await setPlan(db, email, plan);
      const name = typeof options.name === "string" ? options.name : "default";
      const key = await createApiKey(db, account.id, name);
      say(`Created key '${key.name}' (${key.prefix}…) for ${account.email} on the ${plan} plan. It is shown only once.`);
      out(key.key);
    },
  },
  "set-plan": {
    usage: "set-plan --email <e> --plan <free|pro|enterprise>",
    summary: "change an account's plan",
    options: { email: { type: "string" }, plan: { type: "string" } },
    async run(options) {
      const account = await setPlan(await getDb(), required(options, "email"), planOption(options));
      say(`${account.email} is now on the ${account.plan} plan.`);
      out(account.plan);
    },
  },
  "list-keys": {
    usage: "list-keys --email <e>",
    summary: "list an account's keys (prefix, name, created, last used, revoked) as tab-separated lines",
    options: { email: { type: "string" } },
    async run(options) {
      const db = await getDb();
      const account = await findAccountByEmail(db, required(options, "email"));
      if (account === undefined) throw new AppError("not_found", `No account with email ${String(options.email)}.`);
      const keys = await listApiKeys(db, account.id);
      say(`${keys.length} key(s) for ${account.email} (${account.plan} plan).`);
      if (keys.length > 0) out(["prefix", "name", "created_at", "last_used_at", "revoked_at"].join("\t"));
      for (const key of keys) {
        out(
          [key.prefix, key.name, key.createdAt.toISOString(), key.lastUsedAt?.toISOString() ?? "-", key.revokedAt?.toISOString() ?? "-"].join(
            "\t",
          ),
        );
      }
    },
  },
  "revoke-key": {
    usage: "revoke-key --prefix <brier_live_xxxxxxxx>",
    summary: "revoke the key with this visible prefix (takes effect on its next request)",
    options: { prefix: { type: "string" } },
    async run(options) {
      const revoked = await revokeApiKeysByPrefix(await getDb(), required(options, "prefix"));
      if (revoked.length === 0) throw new AppError("not_found", `No active key has the prefix ${String(options.prefix)}.`);
      for (const key of revoked) {
        say(`Revoked '${key.name}' (${key.prefix}…).`);
        out(key.prefix);
      }
    },
  },
  "set-password": {
    usage: "set-password --email <e>   (the password is read from stdin)",
    summary: "set an account's password, read from standard input",
    options: { email: { type: "string" } },
    async run(options) {
      const email = required(options, "email");
      const password = (await readStdin()).replace(/\r?\n$/, "");
      const account = await setPassword(await getDb(), email, password);
      say(`Password set for ${account.email}.`);
    },
  },
  ingest: {
    usage: "ingest [--venue <key>]...",
    summary: "poll venues into the catalog now (default: every catalog venue), with progress on stderr",
    options: { venue: { type: "string", multiple: true } },
    async run(options) {
      const venues = Array.isArray(options.venue) ? options.venue.map(String) : undefined;
      const unknown = venues?.filter((venue) => !buildableExchanges.includes(venue)) ?? [];
      if (unknown.length > 0) {
        throw new UsageError(`unknown venue ${unknown.join(", ")}; one of: ${buildableExchanges.join(", ")}`);
      }
      const progress = progressBar();
      const runs = await ingestCatalog(await getDb(), { venues, trigger: "cli", onProgress: progress.onProgress });
      progress.finish();
      for (const run of runs) {
        const detail = run.outcome === "failed" ? ` error: ${run.error ?? "unknown"}` : "";
        out(`${run.venue}\t${run.outcome}\tevents=${run.eventsSeen}\tmarkets=${run.marketsSeen}\tclosed=${run.marketsClosed}\t${run.durationMs}ms${detail}`);
      }
      if (runs.some((run) => run.outcome === "failed")) throw new AppError("service_unavailable", "Some venues failed; see above.");
    },
  },
  match: {
    usage: "match [--full]",
    summary: "cross-venue matching over new and changed markets (--full: every market), progress on stderr",
    options: { full: { type: "boolean" } },
    async run(options) {
      const summary = await runMatching(await getDb(), {
        full: options.full === true,
        onProgress: (p) => say(`matching ${p.phase} ${p.total === undefined ? p.done : `${p.done}/${p.total}`}`),
      });
      out(
        `${summary.mode}\tmarkets=${summary.marketsIndexed}\tread=${summary.marketsRead}\tcompared=${summary.pairsCompared}\tmatches=${summary.matchesFound}\topened=${summary.opened}\tconfirmed=${summary.confirmed}\tclosed=${summary.closed}\t${summary.durationMs}ms`,
      );
    },
  },
  "demo-ticks": {
    usage: "demo-ticks [--days N]",
    summary: "write SYNTHETIC order-book ticks for the mock venue's markets (offline demos only; see docs/ticks.md)",
    options: { days: { type: "string" } },
    async run(options) {
      const days = options.days === undefined ? 7 : Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 90) throw new UsageError("--days must be an integer from 1 to 90");
      const markets = await demoMarketsFromCatalog(await getDb(), "mock");
      if (markets.length === 0) throw new AppError("not_found", "The catalog has no mock-venue markets: run `admin -- ingest --venue mock` first.");
      say(`Writing ${days} day(s) of synthetic ticks for ${markets.length} mock market(s)…`);
      const { writer } = await getTickStores();
      const result = await writeDemoTicks(writer, markets, {
        days,
        onProgress: (done, total, rows) => say(`  ${done}/${total} markets, ${rows} rows`),
      });
      out(`markets=${result.markets}\trows=${result.rows}\t${Object.entries(result.byEventType).map(([type, n]) => `${type}=${n}`).join("\t")}`);
      say(`SYNTHETIC cross-venue demo pair (docs/spreads.md): ${JSON.stringify(await writeDemoPair(await getDb(), writer, { days }))}`);
    },
  },
  migrate: {
    usage: "migrate",
    summary: "apply pending PostgreSQL migrations and ClickHouse DDL",
    options: {},
    async run() {
      await getDb();
      await getTickStores();
      say("PostgreSQL migrations and ClickHouse DDL are up to date.");
    },
  },
};

function help(): string {
  const lines = Object.values(commands).map((command) => `  ${command.usage}\n      ${command.summary}`);
  return `Usage: npm run --silent admin -- <command> [options]\n\nCommands:\n${lines.join("\n")}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    say(help());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    say(`Unknown command '${name}'.\n\n${help()}`);
    return 2;
  }
  try {
    const { values } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false });
    await command.run(values);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      say(`${(error as Error).message}\nUsage: npm run --silent admin -- ${command.usage}`);
      return 2;
    }
    if (error instanceof AppError || (error instanceof Error && error.name === "DataDirLockedError")) {
      say(`Error: ${error.message}`);
      return 1;
    }
    say(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await closeDatabase().catch(() => undefined);
    await closeTickStores().catch(() => undefined);
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
