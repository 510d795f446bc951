import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { clearCatalog, makeEvent } from "@/test/helpers/catalog";
import type { NormalizedEvent } from "./normalize";
import { unseenOpenMarkets, upsertCatalog } from "./store";

// Re-ingestion: unchanged rows are not rewritten (no new row version), and no stored field is
// ever lost or blanked by a poll that lacks it.

type Stored = Record<string, unknown> & { id: string; version: string };

/** Every column of every catalog row, plus its row version (xmin changes on every rewrite). */
async function snapshot(table: "markets" | "events"): Promise<Map<string, Stored>> {
  const db = await getDb();
  // xmax is set by a row lock too: equal xmax means not even locked.
  const result = await db.execute(sql`select xmin::text as version, xmax::text as locked_by, * from ${sql.raw(table)} order by id`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Stored[];
  return new Map(rows.map((r) => [r.id, r]));
}


/** The same poll again, an hour later: identical data, a new poll time. */
function laterPoll(items: NormalizedEvent[]): NormalizedEvent[] {
  const later = new Date(Date.now() + 3_600_000);
  return items.map((e) => ({
    event: { ...e.event, lastSeenAt: later },
    markets: e.markets.map((m) => ({ ...m, lastSeenAt: later })),
  }));
}

describe("upsertCatalog on re-ingestion", () => {
  let poll: NormalizedEvent[] = [];

  beforeEach(async () => {
    await clearCatalog();
    poll = [
      makeEvent({ venue: "polymarket", slug: "ev-a", title: "Event A" }, [
        { slug: "m-1", description: "rules 1", volume: 10, liquidity: 5, openInterest: 2, url: "https://x/1", image: "https://x/1.png" },
        { slug: "m-2", description: "rules 2", volume24h: 3, status: "active" },
      ]),
      makeEvent({ venue: "kalshi" }, [{ resolutionDate: new Date("2027-05-01T00:00:00Z"), contractAddress: "0xkalshi" }]),
    ];
    await upsertCatalog(await getDb(), poll);
  });

  it("identical data a poll later rewrites no row, and every field reads back the same", async () => {
    const [markets, events] = [await snapshot("markets"), await snapshot("events")];
    expect(markets.size).toBe(3);
    await upsertCatalog(await getDb(), laterPoll(poll));
    expect(await snapshot("markets")).toEqual(markets);
    expect(await snapshot("events")).toEqual(events);
  });

  it("a poll that lacks optional values keeps the stored ones and rewrites nothing", async () => {
    const [before, events] = [await snapshot("markets"), await snapshot("events")];
    const sparse = laterPoll(poll).map((e) => ({
      event: { ...e.event, slug: null, description: null, image: null, url: null, volume: null, resolutionDate: null },
      markets: e.markets.map((m) => ({
        ...m,
        slug: null,
        description: null,
        volume: null,
        liquidity: null,
        openInterest: null,
        status: null,
        resolutionDate: null,
        contractAddress: null,
        url: null,
        image: null,
      })),
    }));
    await upsertCatalog(await getDb(), sparse);
    expect(await snapshot("markets")).toEqual(before);
    expect(await snapshot("events")).toEqual(events);
  });

  it("a changed field rewrites that row only; the other fields, first_seen_at included, are kept", async () => {
    const before = await snapshot("markets");
    const changed = laterPoll(poll);
    const target = changed[0]?.markets[1];
    if (target === undefined) throw new Error("missing market");
    target.volume24h = 777;
    target.outcomes = target.outcomes.map((o, i) => ({ ...o, price: i === 0 ? 0.7 : 0.3, priceChange24h: i === 0 ? -0.2 : 0.2 }));
    target.slug = null; // a sparse value in the same poll is still kept
    await upsertCatalog(await getDb(), changed);
    const after = await snapshot("markets");
    for (const [id, row] of before) {
      const now = after.get(id);
      if (now === undefined) throw new Error(`row ${id} lost`);
      if (id !== target.id) {
        expect(now).toEqual(row);
        continue;
      }
      expect(now.version).not.toBe(row.version);
      expect(now).toMatchObject({ volume24h: 777, abs_change24h: 0.2, slug: row.slug, first_seen_at: row.first_seen_at });
      const untouched = Object.keys(row).filter(
        (k) => !["version", "locked_by", "volume24h", "abs_change24h", "outcomes", "last_seen_at"].includes(k),
      );
      for (const k of untouched) expect(now[k], k).toEqual(row[k]);
    }
    // The event's aggregates follow its markets.
    const event = (await snapshot("events")).get(poll[0]?.event.id ?? "");
    expect(event).toMatchObject({ abs_change24h: 0.2, liquidity: 105 });
  });

  it("unseenOpenMarkets: open markets of the venue the poll did not list, most traded first", async () => {
    const db = await getDb();
    const ids = poll[0]?.markets.map((m) => m.id) ?? [];
    expect((await unseenOpenMarkets(db, "polymarket", ids, 10)).map((m) => m.id)).toEqual([]);
    expect((await unseenOpenMarkets(db, "polymarket", ids.slice(1), 10)).map((m) => m.id)).toEqual(ids.slice(0, 1));
    expect((await unseenOpenMarkets(db, "polymarket", [], 10)).map((m) => m.id)).toEqual(ids);
    expect(await unseenOpenMarkets(db, "kalshi", ids, 10)).toHaveLength(1);
  });
});
