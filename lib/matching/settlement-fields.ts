import "server-only";
/**
 * The settlement terms venues state as fields (docs/matching.md, "Settlement terms"), kept for the
 * engine: each venue's reader (`lib/recorder/<venue>/settlement.ts`, through the registry) sweeps
 * its open markets after a catalog poll, and `storeSettlementFields` keeps them by market, dated
 * (`read_at`, `changed_at`), with a hash that joins the text's fingerprint so a market whose fields
 * change is read again. `readChanged` (store.ts) hands them to the extractor with the text.
 */
import { sql } from "drizzle-orm";
import { resultRows, type Db } from "@/lib/db";
import type { SettlementFields } from "./rules";
import { chunks } from "./store";

/** A stable text of the fields (keys sorted), so the same fields always hash alike. */
function stableText(fields: SettlementFields): string {
  const sorted = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify(sorted);
}

const BATCH = 1000;

/**
 * Keeps one venue's swept fields by catalog market (`venueMarketId` of `venue`; markets the catalog
 * does not list are skipped). A market whose fields are unchanged only has `read_at` moved; a
 * changed one gets a new hash and `changed_at`. Resolves to the markets written.
 */
export async function storeSettlementFields(db: Db, venue: string, rows: ReadonlyArray<{ venueMarketId: string; fields: SettlementFields }>, now: Date): Promise<number> {
  let written = 0;
  for (const batch of chunks([...rows], BATCH)) {
    const json = JSON.stringify(batch.map((r) => ({ venue_market_id: r.venueMarketId, fields: JSON.parse(stableText(r.fields)) as unknown })));
    const result = await db.execute(sql`
      insert into market_settlement_fields (market_id, fields, hash, read_at, changed_at)
      select m.id, r.fields, md5(r.fields::text), ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${json}::jsonb) as r(venue_market_id text, fields jsonb)
      join markets m on m.venue = ${venue} and m.venue_market_id = r.venue_market_id
      on conflict (market_id) do update set
        fields = excluded.fields,
        hash = excluded.hash,
        read_at = excluded.read_at,
        changed_at = case when market_settlement_fields.hash = excluded.hash then market_settlement_fields.changed_at else excluded.changed_at end
      returning market_id`);
    written += resultRows(result).length;
  }
  return written;
}

/**
 * Whether a venue's settlement fields are due for a sweep: none stored yet, or the newest read is
 * older than `maxAgeMs`. A market listed since the last sweep is read at the next one (its hash then
 * joins its fingerprint, and matching reads it again).
 */
export async function settlementSweepDue(db: Db, venue: string, now: Date, maxAgeMs: number): Promise<boolean> {
  const [row] = resultRows<{ newest: string | null }>(
    await db.execute(sql`select max(f.read_at)::text as newest from market_settlement_fields f join markets m on m.id = f.market_id where m.venue = ${venue}`),
  );
  if (row === undefined || row.newest === null) return true;
  return now.getTime() - new Date(row.newest).getTime() >= maxAgeMs;
}
