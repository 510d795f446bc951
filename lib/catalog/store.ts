import "server-only";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { hash as digest } from "node:crypto";
import { resultRows, type Db } from "@/lib/db";
import { events, type NewEventRow } from "@/lib/db/schema/events";
import { marketRanks } from "@/lib/db/schema/market-ranks";
import { markets, type NewMarketRow } from "@/lib/db/schema/markets";
import { eventQuotes, marketQuotes } from "@/lib/db/schema/quotes";
import { UUID_PATTERN } from "./ids";
import type { NormalizedEvent } from "./normalize";
import { catalogChanged } from "./totals";

/** Markets per upsert statement. */
export const MARKET_BATCH = 1000;

/**
 * Column name -> SQL type of each upserted column. A whole batch travels as ONE bound JSON
 * parameter unpacked by jsonb_to_recordset: the statement text never changes (prepared once),
 * and 1,000 rows cost one parameter instead of 22,000 (about 10x faster than a VALUES list).
 */
const eventColumns = {
  id: "uuid",
  venue: "text",
  venue_event_id: "text",
  title: "text",
  slug: "text",
  description: "text",
  category: "text",
  venue_category: "text",
  tags: "text[]",
  image: "text",
  url: "text",
  volume24h: "float8",
  abs_change24h: "float8",
  liquidity: "float8",
  closed: "boolean",
  resolution_date: "timestamptz",
  last_seen_at: "timestamptz",
  content_hash: "text",
} as const;

const marketColumns = {
  id: "uuid",
  event_id: "uuid",
  venue: "text",
  venue_market_id: "text",
  title: "text",
  slug: "text",
  description: "text",
  category: "text",
  outcomes: "jsonb",
  outcome_ids: "text[]",
  status: "text",
  closed: "boolean",
  resolution_date: "timestamptz",
  contract_address: "text",
  url: "text",
  image: "text",
  last_seen_at: "timestamptz",
  content_hash: "text",
} as const;

/** Columns a poll that lacks a value must not blank: `coalesce(excluded.col, table.col)`. */
const keptEventColumns = new Set([
  "slug",
  "description",
  "venue_category",
  "image",
  "url",
  "liquidity",
  "resolution_date",
]);
const keptMarketColumns = new Set([
  "slug",
  "description",
  "status",
  "resolution_date",
  "contract_address",
  "url",
  "image",
]);

/** Columns an update never rewrites: the conflict key and what it is derived from. */
const identityColumns = new Set(["id", "venue", "venue_event_id", "venue_market_id"]);

/**
 * The rank keys of `events` and of `market_ranks`: the list orders' sort keys, which every poll
 * moves a little. They are not compared like the descriptive columns: a poll rewrites them (and so
 * the row and its indexes: for a market, the narrow `market_ranks` row and the listing's order
 * indexes only) only when one moved by more than a step, and answers read the current values from
 * the quote tables (docs/catalog.md).
 */
const rankKeys = new Set(["volume24h", "abs_change24h", "liquidity"]);

/**
 * What counts as a rank moving: a volume or liquidity by more than 10% of the larger value and
 * more than 10 units (below that a market sits in the list's tail either way), the 24-hour change
 * by more than one percentage point. The listing's order is exact up to these steps.
 */
export const RANK_STEP = { relative: 0.1, floor: 10, change: 0.01 } as const;

/** SQL: true when a rank key of `current` (a stored row) moved by more than a step to `incoming`'s value. */
function rankMoved(incoming: string, current: string): string {
  const beyond = (from: string, to: string) =>
    `abs(${from} - ${to}) > greatest(${RANK_STEP.relative} * greatest(abs(${from}), abs(${to})), ${RANK_STEP.floor})`;
  const liquidity = `coalesce(${incoming}.liquidity, ${current}.liquidity)`;
  return `(${beyond(`${current}.volume24h`, `${incoming}.volume24h`)}
    or abs(${current}.abs_change24h - ${incoming}.abs_change24h) > ${RANK_STEP.change}
    or (${current}.liquidity is null) <> (${liquidity} is null)
    or coalesce(${beyond(`${current}.liquidity`, liquidity)}, false))`;
}

/**
 * One batch upsert (the descriptive rows as one JSON parameter). Re-ingesting a row whose data did not change writes nothing: rows are
 * compared as they would become (kept columns coalesced) with the stored row, leaving out
 * `last_seen_at` (a poll's time, different on every poll) and the rank keys (which count only
 * when they moved by a step, `rankMoved`). The comparison runs twice: first as a
 * plain read (a left join on the primary key) that drops unchanged rows before the insert, because
 * ON CONFLICT DO UPDATE locks the conflicting row (a write to its page and the WAL) even when its
 * WHERE then skips the update; then in that WHERE, for a row another writer changed in between.
 * So an unchanged row costs one primary-key probe, no new row version, no index entry, no lock.
 * A stored hash of '' (drizzle/0016: written by an older row format) forces one rewrite, which
 * stores this format's hash, so such rows do not take the full comparison on every poll.
 * Which rows a poll saw is passed to `unseenOpenMarkets` instead of being read back from `last_seen_at`.
 */
function upsertStatement(table: "events" | "markets", columns: Record<string, string>, kept: Set<string>, rowsJson: string): SQL {
  const names = Object.keys(columns);
  const definitions = names.map((name) => `${name} ${columns[name]}`).join(", ");
  const updated = names.filter((name) => !identityColumns.has(name));
  // The hash is stored with every write but never makes one: a poll that lacks optional values
  // (another hash, the same row once coalesced) rewrites nothing.
  const compared = updated.filter((name) => name !== "last_seen_at" && name !== "content_hash" && !rankKeys.has(name));
  // A market's rank keys are not in its row (`market_ranks`, `ranksStatement`); an event's are.
  const ranked = names.some((name) => rankKeys.has(name));
  /** The value a column takes from `incoming` over `current` (kept columns are never blanked). */
  const next = (name: string, incoming: string, current: string) =>
    kept.has(name) ? `coalesce(${incoming}.${name}, ${current}.${name})` : `${incoming}.${name}`;
  const changed = (incoming: string, current: string) =>
    `((${compared.map((name) => `${current}.${name}`).join(", ")}) is distinct from (${compared
      .map((name) => next(name, incoming, current))
      .join(", ")})${ranked ? ` or ${rankMoved(incoming, current)}` : ""} or ${current}.content_hash = '')`;
  const updates = updated.map((name) => `${name} = ${next(name, "excluded", table)}`).join(", ");
  return sql`insert into ${sql.raw(table)} (${sql.raw(names.join(", "))})
    select ${sql.raw(names.map((name) => `r.${name}`).join(", "))}
    from jsonb_to_recordset(${withoutNul(rowsJson)}::jsonb) as r(${sql.raw(definitions)})
    left join ${sql.raw(table)} as cur on cur.id = r.id
    where cur.id is null or ${sql.raw(changed("r", "cur"))}
    on conflict (id) do update set ${sql.raw(updates)}
    where ${sql.raw(changed("excluded", table))}`;
}

/** PostgreSQL text cannot hold NUL; a venue string carrying one loses just that character. */
const withoutNul = (json: string) => json.replaceAll("\\u0000", "");

/** Where a table's quotes live: the quote table, its columns (SQL types) and those a poll that lacks them must not blank. */
interface QuoteTable {
  quotes: "market_quotes" | "event_quotes";
  columns: Record<string, string>;
  kept: ReadonlySet<string>;
}

const quoteTables: Record<"markets" | "events", QuoteTable> = {
  markets: {
    quotes: "market_quotes",
    columns: { outcomes: "jsonb", volume24h: "float8", volume: "float8", liquidity: "float8", open_interest: "float8" },
    kept: new Set(["volume", "liquidity", "open_interest"]),
  },
  events: {
    quotes: "event_quotes",
    columns: { volume24h: "float8", volume: "float8", liquidity: "float8" },
    kept: new Set(["volume", "liquidity"]),
  },
};

/**
 * A batch's quotes as columns, index-aligned with its rows: each a PostgreSQL array literal bound
 * as one parameter and unnested in the statement (`quoteInput`), the outcomes (markets) one JSON
 * array of every row's outcomes. PostgreSQL reads a float8[] or uuid[] literal straight into its
 * values, where `jsonb_to_recordset` parsed every number as JSON and converted it through text
 * (docs/performance.md, "Catalog writes").
 */
interface QuoteColumns {
  id: string[];
  /** The row's descriptive hash (`content_hash` as this poll would store it). */
  h: string[];
  abs_change24h: number[];
  quoted_at: string[];
  /** The table's quote columns (`QuoteTable.columns`): numbers, or (outcomes) each row's outcomes as JSON text. */
  values: Record<string, Array<number | string | null>>;
}

/** An array literal element: a number as JSON writes it (non-finite and null as NULL, as JSON.stringify made them null), a string quoted. */
function element(value: number | string | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  return /["\\]/.test(value) ? `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"` : `"${value}"`;
}

/**
 * An element an array literal can carry as `join` writes it: a finite number (`join` and `element`
 * both write `String(n)`), or a string that needs no quoting, such as a UUID, a hex digest or an ISO
 * instant (never `NULL`, which would read as null).
 */
const PLAIN_ELEMENT = /^[0-9A-Za-z:.+-]+$/;
const plain = (value: number | string | null): boolean =>
  typeof value === "number"
    ? Number.isFinite(value)
    : typeof value === "string" && PLAIN_ELEMENT.test(value) && !(value.length === 4 && value.toLowerCase() === "null");

/** `{a,b,...}`: a PostgreSQL array literal of `values`, the rows of `keep` only when given. */
function arrayLiteral(values: ReadonlyArray<number | string | null>, keep?: readonly number[]): string {
  const picked = keep === undefined ? values : keep.map((i) => values[i] ?? null);
  // Ids, hashes, poll times and numbers without a null in one join, not element by element.
  if (picked.length > 0 && picked.every(plain)) return `{${picked.join(",")}}`;
  let out = "{";
  for (let i = 0; i < picked.length; i += 1) out += (i === 0 ? "" : ",") + element(picked[i] ?? null);
  return `${out}}`;
}

/**
 * The batch's quotes (the rows of `keep` only when given) as a FROM item `r`: one `unnest` per
 * column zipped by `rows from`, the outcomes by `jsonb_array_elements` of one JSON array.
 */
function quoteInput(q: QuoteTable, quotes: QuoteColumns, keep?: readonly number[]): SQL {
  const typed = (literal: string, type: string) => sql`unnest(${literal}::${sql.raw(type)}[])`;
  const parts: SQL[] = [
    typed(arrayLiteral(quotes.id, keep), "uuid"),
    typed(arrayLiteral(quotes.h, keep), "text"),
    typed(arrayLiteral(quotes.abs_change24h, keep), "float8"),
    typed(arrayLiteral(quotes.quoted_at, keep), "timestamptz"),
  ];
  for (const [name, type] of Object.entries(q.columns)) {
    const values = quotes.values[name] ?? [];
    if (type === "jsonb") {
      const picked = keep === undefined ? values : keep.map((i) => values[i] ?? null);
      parts.push(sql`jsonb_array_elements(${withoutNul(`[${picked.join(",")}]`)}::jsonb)`);
    } else parts.push(typed(arrayLiteral(values, keep), type));
  }
  return sql`rows from (${sql.join(parts, sql`, `)}) as r(id, h, abs_change24h, quoted_at, ${sql.raw(Object.keys(q.columns).join(", "))})`;
}

/** A quote column's new value from `incoming` over `current` (kept columns are never blanked). */
const quoteValue = (q: QuoteTable, name: string, incoming: string, current: string) =>
  q.kept.has(name) ? `coalesce(${incoming}.${name}, ${current}.${name})` : `${incoming}.${name}`;

/**
 * A quote row's copies of its row's descriptive hash and rank keys, in this order: `market_quotes`'
 * of `markets.content_hash` and the `market_ranks` keys (drizzle/0024), `event_quotes`' of `events`' own (drizzle/0029).
 */
const quoteCopies = ["content_hash", "rank_volume24h", "rank_abs_change24h", "rank_liquidity"] as const;

/** Where a table's rank keys live: `market_ranks` for markets, the `events` row itself for events. */
const rankTables = { markets: "market_ranks", events: "events" } as const;

/**
 * A batch's quotes written, and the rows that need more named, in ONE statement that reads one row
 * per market (or event): its quote row, which carries copies of the row's descriptive hash and rank
 * keys as last written (`quoteCopies`). On a settled 1M catalog, reading those from `markets` and
 * `market_ranks` instead was two random primary-key probes per market that only read, ~95 % of the
 * statement's time (docs/performance.md, "Where a batch's time goes at 1M"); for events, a probe of
 * `events` per event (drizzle/0029, "Both sides of a write's CPU").
 *
 * - `p`: each market's quote row, read once: pending (no quote row yet, or no copies, or a
 *   descriptive hash other than the copy), whether a rank key moved past its step from the copied
 *   keys (`rankMoved`), whether the quote changed (kept values coalesced like the upsert's).
 * - `q`: the `UPDATE` of the quote rows of markets that are not pending and whose quote changed or
 *   whose rank moved (the copied keys follow a move), guarded: only while the row still carries the
 *   copies `p` read, so a writer that changed the market in between sends it down the full path
 *   instead of being overwritten. The row is found by the version `p` read (its `ctid`: a TID
 *   scan, no second descent of the primary key; a row another writer updated since is not there,
 *   and goes down the full path like one whose copies changed). The table has its primary key only
 *   and fillfactor 50: a heap-only (HOT) update, no index entry.
 * - `k`: the rank keys of the rows `q` updated with a moved rank, in `rankTables`: the only write to
 *   the other tables an ordinary poll makes, and usually none.
 * - the select: rows pending, and those `q`'s guard skipped, for the full path (`writeQuoted`:
 *   `upsertStatement`, for markets `ranksStatement`, then `pendingQuotesStatement`, which writes
 *   their quote rows with fresh copies).
 */
function quoteStatement(table: "markets" | "events", quotes: QuoteColumns): SQL {
  const q = quoteTables[table];
  const names = Object.keys(q.columns);
  // What `p` read of the copies, which `q` checks the row still carries.
  const assumed = quoteCopies.map((name) => `c.${name} as assumed_${name}`).join(", ");
  const kept = (name: string) => (name === "liquidity" ? "coalesce(p.liquidity, q.rank_liquidity)" : `p.${name}`);
  return sql`with r as materialized (
      select * from ${quoteInput(q, quotes)}
    ), p as materialized (
      select r.*, c.ctid as quote_row, c.id is null as "new", ${sql.raw(assumed)},
        c.id is null or c.rank_volume24h is null or c.content_hash is distinct from r.h as pending,
        coalesce(${sql.raw(rankMoved("r", "k"))}, false) as moved,
        (${sql.raw(names.map((name) => `c.${name}`).join(", "))}) is distinct from
          (${sql.raw(names.map((name) => quoteValue(q, name, "r", "c")).join(", "))}) as requoted
      from r left join ${sql.raw(q.quotes)} as c on c.id = r.id
        cross join lateral (select c.rank_volume24h as volume24h, c.rank_abs_change24h as abs_change24h, c.rank_liquidity as liquidity) as k
    ), q as (
      update ${sql.raw(q.quotes)} as q set ${sql.raw(names.map((name) => `${name} = ${quoteValue(q, name, "p", "q")}`).join(", "))},
        quoted_at = case when p.requoted then p.quoted_at else q.quoted_at end,
        ${sql.raw(
          ["volume24h", "abs_change24h", "liquidity"].map((name) => `rank_${name} = case when p.moved then ${kept(name)} else q.rank_${name} end`).join(", "),
        )}
      from p
      where q.ctid = p.quote_row and q.id = p.id and not p.pending and (p.requoted or p.moved)
        and (${sql.raw(quoteCopies.map((name) => `q.${name}`).join(", "))}) is not distinct from (${sql.raw(quoteCopies.map((name) => `p.assumed_${name}`).join(", "))})
      returning q.id
    ), k as (
      update ${sql.raw(rankTables[table])} as m set volume24h = p.volume24h, abs_change24h = p.abs_change24h, liquidity = coalesce(p.liquidity, m.liquidity)
      from q join p on p.id = q.id
      where m.id = p.id and p.moved
    )
    select p.id::text as id, p."new" from p
    where p.pending or ((p.requoted or p.moved) and p.id not in (select q.id from q))`;
}

/**
 * The quote rows of a batch's rows that went down the full path (`keep`), after their rows (and a
 * market's `market_ranks` row) were written: a new row's quote, and for a known one its changed
 * quote, with the copies (`quoteCopies`) read from the rows as they now are. `quoted_at` moves only
 * with the quote, as in `quoteStatement`. The row is written only when something differs; one
 * statement per quote row and transaction (a second update of a row this transaction wrote would
 * check its foreign key, locking the `markets` or `events` row).
 */
function pendingQuotesStatement(table: "markets" | "events", quotes: QuoteColumns, keep: readonly number[]): SQL {
  const q = quoteTables[table];
  const names = Object.keys(q.columns);
  const values = names.map((name) => quoteValue(q, name, "excluded", q.quotes));
  const current = names.map((name) => `${q.quotes}.${name}`).join(", ");
  // `m`: the row (its hash), `k`: where its rank keys are (an event's are on its row).
  const rows = table === "markets" ? sql`join markets as m on m.id = r.id join market_ranks as k on k.id = r.id` : sql`join events as m on m.id = r.id cross join lateral (select m.volume24h, m.abs_change24h, m.liquidity) as k`;
  return sql`insert into ${sql.raw(q.quotes)} (id, ${sql.raw(names.join(", "))}, quoted_at, ${sql.raw(quoteCopies.join(", "))})
    select r.id, ${sql.raw(names.map((name) => `r.${name}`).join(", "))}, r.quoted_at, m.content_hash, k.volume24h, k.abs_change24h, k.liquidity
    from ${quoteInput(q, quotes, keep)}
      ${rows}
    on conflict (id) do update set ${sql.raw(names.map((name, i) => `${name} = ${values[i] ?? ""}`).join(", "))},
      quoted_at = case when (${sql.raw(current)}) is distinct from (${sql.raw(values.join(", "))}) then excluded.quoted_at else ${sql.raw(q.quotes)}.quoted_at end,
      ${sql.raw(quoteCopies.map((name) => `${name} = excluded.${name}`).join(", "))}
    where (${sql.raw(current)}, ${sql.raw(quoteCopies.map((name) => `${q.quotes}.${name}`).join(", "))}) is distinct from
      (${sql.raw(values.join(", "))}, ${sql.raw(quoteCopies.map((name) => `excluded.${name}`).join(", "))})`;
}

/** `markets`' columns that `market_ranks` copies (the listing's filters, its two other orders, the search vector). */
const copiedColumns = ["venue", "category", "closed", "resolution_date", "first_seen_at", "search_vector"];

/**
 * The `market_ranks` rows of a batch's rows that `upsertStatement` was given (`keep`: new, or
 * their descriptive hash differs), after it wrote them: a new market's row, and for a known one
 * its rank keys and copied columns when a copy differs from its `markets` row or a rank key moved
 * past its step (`rankMoved`); otherwise nothing.
 */
function ranksStatement(quotes: QuoteColumns, keep: readonly number[]): SQL {
  const typed = (values: ReadonlyArray<number | string | null>, type: string) => sql`unnest(${arrayLiteral(values, keep)}::${sql.raw(type)}[])`;
  const liquidity = quotes.values.liquidity ?? [];
  const copies = copiedColumns.map((name) => `k.${name}`).join(", ");
  const current = copiedColumns.map((name) => `m.${name}`).join(", ");
  return sql`insert into market_ranks (id, volume24h, abs_change24h, liquidity, ${sql.raw(copiedColumns.join(", "))})
    select m.id, r.volume24h, r.abs_change24h, coalesce(r.liquidity, k.liquidity), ${sql.raw(current)}
    from rows from (${typed(quotes.id, "uuid")}, ${typed(quotes.values.volume24h ?? [], "float8")}, ${typed(quotes.abs_change24h, "float8")}, ${typed(liquidity, "float8")})
      as r(id, volume24h, abs_change24h, liquidity)
    join markets as m on m.id = r.id left join market_ranks as k on k.id = r.id
    where k.id is null or (${sql.raw(copies)}) is distinct from (${sql.raw(current)}) or coalesce(${sql.raw(rankMoved("r", "k"))}, false)
    on conflict (id) do update set ${sql.raw(
      ["volume24h", "abs_change24h", "liquidity", ...copiedColumns].map((name) => `${name} = excluded.${name}`).join(", "),
    )}`;
}

const iso = (d: Date | null | undefined) => (d instanceof Date ? d.toISOString() : null);

/**
 * Each row's poll time as ISO text. A poll stamps its rows with one or a few instants, so the text
 * of the previous row's instant is reused while the instant repeats (`toISOString` per row was
 * ~1 µs of the writer's ~30 µs a market: docs/performance.md, "The writer's own CPU").
 */
function pollTimes(rows: ReadonlyArray<{ lastSeenAt?: Date | null }>): string[] {
  const pollTime = new Date().toISOString();
  let lastMs = Number.NaN;
  let lastText = pollTime;
  return rows.map((r) => {
    const at = r.lastSeenAt;
    if (!(at instanceof Date)) return pollTime;
    const ms = at.getTime();
    if (ms !== lastMs) {
      lastText = at.toISOString();
      lastMs = ms;
    }
    return lastText;
  });
}

/** The largest absolute 24-hour price change among outcomes (what `sort=change24h` ranks by). */
function largestMove(outcomes: ReadonlyArray<{ priceChange24h: number }>): number {
  let largest = 0;
  for (const o of outcomes) {
    const move = Math.abs(o.priceChange24h);
    if (Number.isFinite(move) && move > largest) largest = move;
  }
  return largest;
}

/** Event aggregates of its markets, unless the event row already carries them. */
function withMarketAggregates(event: NewEventRow, rows: readonly NewMarketRow[]): NewEventRow {
  let liquidity: number | null = null;
  let move = 0;
  for (const m of rows) {
    if (typeof m.liquidity === "number" && Number.isFinite(m.liquidity)) liquidity = (liquidity ?? 0) + m.liquidity;
    move = Math.max(move, m.absChange24h ?? largestMove(m.outcomes));
  }
  return { ...event, liquidity: event.liquidity ?? liquidity, absChange24h: event.absChange24h ?? move };
}

/** A batch's quote columns: its rows' ids and hashes, the rank keys (also quoted), the poll times and the table's other quote values. */
function quoteColumns(
  batch: PreparedBatch,
  ranks: ReadonlyArray<{ volume24h: number; abs_change24h: number; liquidity: number | null }>,
  quotedAt: string[],
  values: QuoteColumns["values"],
): QuoteColumns {
  return {
    id: batch.ids,
    h: batch.hashes,
    abs_change24h: ranks.map((rank) => rank.abs_change24h),
    quoted_at: quotedAt,
    values: { ...values, volume24h: ranks.map((rank) => rank.volume24h), liquidity: ranks.map((rank) => rank.liquidity) },
  };
}

function prepareEventRows(incoming: readonly NewEventRow[]): PreparedQuoted {
  const quotedAt = pollTimes(incoming);
  // What describes the event: hashed, and written only when it changed.
  const describe = (r: NewEventRow) => ({
    id: r.id,
    venue: r.venue,
    venue_event_id: r.venueEventId,
    title: r.title,
    slug: r.slug ?? null,
    description: r.description ?? null,
    category: r.category,
    venue_category: r.venueCategory ?? null,
    tags: r.tags ?? [],
    image: r.image ?? null,
    url: r.url ?? null,
    closed: r.closed ?? false,
    resolution_date: iso(r.resolutionDate),
  });
  const ranks = incoming.map((r) => ({ volume24h: r.volume24h ?? 0, abs_change24h: r.absChange24h ?? 0, liquidity: r.liquidity ?? null }));
  const batch = prepareRows("events", eventColumns, keptEventColumns, incoming, describe, quotedAt, ranks);
  const quotes = quoteColumns(batch, ranks, quotedAt, { volume: incoming.map((r) => r.volume ?? null) });
  return { ...batch, table: "events", quotes };
}

function prepareMarketRows(incoming: readonly NewMarketRow[]): PreparedQuoted {
  const quotedAt = pollTimes(incoming);
  // What describes the market: hashed, and written only when it changed.
  const describe = (r: NewMarketRow) => ({
    id: r.id,
    event_id: r.eventId,
    venue: r.venue,
    venue_market_id: r.venueMarketId,
    title: r.title,
    slug: r.slug ?? null,
    description: r.description ?? null,
    category: r.category,
    outcomes: r.outcomes.map((o) => ({ outcomeId: o.outcomeId, label: o.label })),
    outcome_ids: r.outcomeIds ?? r.outcomes.map((o) => o.outcomeId),
    status: r.status ?? null,
    closed: r.closed ?? false,
    resolution_date: iso(r.resolutionDate),
    contract_address: r.contractAddress ?? null,
    url: r.url ?? null,
    image: r.image ?? null,
  });
  // The rank keys ride along with a row that is written, outside its hash.
  const ranks = incoming.map((r) => ({
    volume24h: r.volume24h ?? 0,
    abs_change24h: r.absChange24h ?? largestMove(r.outcomes),
    liquidity: r.liquidity ?? null,
  }));
  const batch = prepareRows("markets", marketColumns, keptMarketColumns, incoming, describe, quotedAt);
  const quotes = quoteColumns(batch, ranks, quotedAt, {
    outcomes: incoming.map((r) => JSON.stringify(r.outcomes)),
    volume: incoming.map((r) => r.volume ?? null),
    open_interest: incoming.map((r) => r.openInterest ?? null),
  });
  return { ...batch, table: "markets", quotes };
}

/** A batch of markets or events: descriptive rows (hashed, upserted when changed) and quotes (every row, every poll; index-aligned). */
interface PreparedQuoted extends PreparedBatch {
  table: "events" | "markets";
  quotes: QuoteColumns;
}

/** One table's rows of a batch, serialised and hashed, ready to write (index-aligned with the batch's input). */
interface PreparedBatch {
  table: "events" | "markets";
  columns: Record<string, string>;
  kept: Set<string>;
  ids: string[];
  /** Each row's descriptive hash (`content_hash` as this poll would store it). */
  hashes: string[];
  /** The row of index `i` as `upsertStatement` reads it, built only for a row that goes on to it. */
  json: (i: number) => string;
}

/**
 * Hashes each row: the MD5 of its JSON, which covers the row as sent, every column but
 * last_seen_at and `unhashed`'s (`content_hash`, see writeChanged); those join the row's JSON in
 * `json()`. The JSON is made again there, for the few rows that go on to the upsert, rather than
 * kept from hashing: kept, every row's text lived until its batch's statements answered, and on a
 * re-poll that is nearly all of them for nothing (docs/performance.md, "The writer's own CPU").
 */
function prepareRows<T>(
  table: PreparedBatch["table"],
  columns: Record<string, string>,
  kept: Set<string>,
  incoming: readonly T[],
  describe: (row: T) => Record<string, unknown> & { id: string | undefined },
  seenAt: ReadonlyArray<string | null>,
  unhashed?: ReadonlyArray<Record<string, unknown>>,
): PreparedBatch {
  const pollTime = new Date().toISOString();
  const ids: string[] = [];
  const hashes: string[] = [];
  // The described row is hashed and dropped: no object of it outlives this loop (it is described
  // again in `json` for the few rows that need it), so on a re-poll it dies young.
  for (const r of incoming) {
    const row = describe(r);
    ids.push(String(row.id));
    hashes.push(digest("md5", JSON.stringify(row)));
  }
  const json = (i: number) => {
    const r = incoming[i];
    if (r === undefined) throw new RangeError(`no row ${i} in a batch of ${incoming.length}`);
    const extra = unhashed?.[i];
    const front = extra === undefined ? "" : `${JSON.stringify(extra).slice(1, -1)},`;
    // The row's JSON with its poll time, hash and unhashed columns in front (the row's own JSON is an object literal `{...}`).
    return `{"last_seen_at":${JSON.stringify(seenAt[i] ?? pollTime)},"content_hash":"${hashes[i] ?? ""}",${front}${JSON.stringify(describe(r)).slice(1)}`;
  };
  return { table, columns, kept, ids, hashes, json };
}

/**
 * Writes a batch of markets or events: `quoteStatement` writes every changed quote and every
 * rank key that moved past its step, and names the rows that are new or whose descriptive hash
 * differs from the stored `content_hash` (rows whose hash equals it are exactly what the write
 * that produced the stored row sent, and applying them again changes nothing). Only those go
 * through `upsertStatement`, which compares in full and stores the new hash with a row it writes
 * (a row it finds unchanged keeps its hash: the state the stored hash's poll produced is the state
 * this poll leaves). New rows' quotes follow their rows (the quote's foreign key). A poll that
 * moved only prices and volumes is one statement per table and batch (docs/performance.md).
 */
async function writeQuoted(tx: Db, batch: PreparedQuoted): Promise<void> {
  if (batch.ids.length === 0) return;
  const pending = resultRows<{ id: string }>(await tx.execute(quoteStatement(batch.table, batch.quotes)));
  if (pending.length === 0) return;
  const wanted = new Set(pending.map((row) => row.id));
  const keep = batch.ids.flatMap((id, i) => (wanted.has(id) ? [i] : []));
  await tx.execute(upsertStatement(batch.table, batch.columns, batch.kept, `[${keep.map((i) => batch.json(i)).join(",")}]`));
  if (batch.table === "markets") await tx.execute(ranksStatement(batch.quotes, keep));
  await tx.execute(pendingQuotesStatement(batch.table, batch.quotes, keep));
}

/**
 * Batches of one poll written at once, each in its own transaction on its own connection: a
 * poll's batches are disjoint (every event and market once, each market in its event's batch), so
 * they never wait on each other's rows, and while one batch's statement runs in the database the
 * next is prepared or sent (docs/performance.md, "Catalog writes"). PGlite has one connection: its
 * transactions queue and the results are the same.
 */
export const BATCH_WRITERS = 2;

/**
 * Upserts normalized events with their markets in batches of about MARKET_BATCH markets, one
 * transaction per batch (events first: markets reference them), up to BATCH_WRITERS batches at
 * once. Returns markets written. Duplicate ids inside one poll (a venue listing a record twice)
 * keep the first occurrence. A failed batch fails the call (after the batches in flight settle).
 */
export async function upsertCatalog(
  db: Db,
  normalized: readonly NormalizedEvent[],
  onBatch?: (marketsDone: number) => void,
): Promise<number> {
  const seenEvents = new Set<string>();
  const seenMarkets = new Set<string>();
  let eventBatch: NewEventRow[] = [];
  let marketBatch: NewMarketRow[] = [];
  let written = 0;
  const inFlight: Array<Promise<void>> = [];
  const flush = async () => {
    if (eventBatch.length === 0 && marketBatch.length === 0) return;
    const [e, m] = [prepareEventRows(eventBatch), prepareMarketRows(marketBatch)];
    const count = marketBatch.length;
    eventBatch = [];
    marketBatch = [];
    // Batches are written while the next is prepared (serialising and hashing its rows is the
    // client's share of the work); at most BATCH_WRITERS at once, the oldest awaited first.
    if (inFlight.length >= BATCH_WRITERS) await inFlight.shift();
    const writing = db
      .transaction(async (tx) => {
        // The catalog is re-polled every minute: a crash may lose the last batches' commit, never
        // consistency, so commits need not wait for the WAL flush (about 2x the upsert rate).
        await tx.execute(sql`set local synchronous_commit = off`);
        await writeQuoted(tx as unknown as Db, e);
        await writeQuoted(tx as unknown as Db, m);
      })
      .then(() => {
        catalogChanged();
        written += count;
        onBatch?.(written);
      });
    // Awaited by a later flush or at the end; this keeps a failure from counting as unhandled in between.
    writing.catch(() => undefined);
    inFlight.push(writing);
  };
  try {
    for (const item of normalized) {
      const eventId = item.event.id;
      if (eventId === undefined || seenEvents.has(eventId)) continue;
      seenEvents.add(eventId);
      eventBatch.push(withMarketAggregates(item.event, item.markets));
      for (const market of item.markets) {
        if (market.id === undefined || seenMarkets.has(market.id)) continue;
        seenMarkets.add(market.id);
        marketBatch.push(market);
      }
      if (marketBatch.length >= MARKET_BATCH || eventBatch.length >= MARKET_BATCH) await flush();
    }
    await flush();
  } finally {
    // Every batch in flight settles before the call answers (or rethrows the first failure below).
    await Promise.allSettled(inFlight);
  }
  for (const writing of inFlight) await writing;
  return written;
}

/**
 * Open markets of `venue` that a poll did not list (`seen`: the market ids it upserted), the most
 * traded first: candidates for a direct lookup. The poll's own list, not `last_seen_at`, says what
 * it saw, because an unchanged market is not rewritten (see upsertStatement).
 */
export async function unseenOpenMarkets(db: Db, venue: string, seen: readonly string[], limit: number) {
  // One array literal parameter (ids are UUIDs: no quoting needed); `<> all` is hashed for long arrays.
  const seenArray = `{${seen.filter((id) => UUID_PATTERN.test(id)).join(",")}}`;
  return db
    .select({ id: markets.id, eventId: markets.eventId, venueMarketId: markets.venueMarketId })
    .from(marketRanks)
    .innerJoin(markets, eq(markets.id, marketRanks.id))
    .where(and(eq(marketRanks.venue, venue), eq(marketRanks.closed, false), sql`${marketRanks.id} <> all(${seenArray}::uuid[])`))
    .orderBy(sql`${marketRanks.volume24h} desc nulls last`)
    .limit(limit);
}

/** Marks markets closed (after a direct lookup confirmed it) and closes events left with no open market. */
export async function markMarketsClosed(db: Db, closed: ReadonlyArray<{ id: string; eventId: string; status: string | null }>) {
  if (closed.length === 0) return;
  await db.transaction(async (tx) => {
    for (const m of closed) {
      await tx
        .update(markets)
        // The row no longer is what its last poll sent: the next poll compares it in full.
        .set({ closed: true, status: sql`coalesce(${m.status}, ${markets.status})`, contentHash: null })
        .where(eq(markets.id, m.id));
    }
    await tx.update(marketRanks).set({ closed: true }).where(inArray(marketRanks.id, closed.map((m) => m.id)));
    // Its quote row's copy of the hash too: the next poll reads that one (quoteStatement).
    await tx.update(marketQuotes).set({ contentHash: null }).where(inArray(marketQuotes.id, closed.map((m) => m.id)));
    const eventIds = [...new Set(closed.map((m) => m.eventId))];
    const closedEvents = await tx
      .update(events)
      .set({ closed: true, contentHash: null })
      .where(
        and(
          inArray(events.id, eventIds),
          sql`not exists (select 1 from ${markets} where ${markets.eventId} = ${events.id} and ${markets.closed} = false)`,
        ),
      )
      .returning({ id: events.id });
    if (closedEvents.length > 0) {
      await tx.update(eventQuotes).set({ contentHash: null }).where(inArray(eventQuotes.id, closedEvents.map((e) => e.id)));
    }
  });
  catalogChanged();
}
