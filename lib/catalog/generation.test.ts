import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { config } from "@/lib/config";
import { getDb, resultRows } from "@/lib/db";
import { parseQuery } from "@/lib/input";
import { clearCatalog, makeEvent, seedCatalog } from "@/test/helpers/catalog";
import { makeKey } from "@/test/helpers/keys";
import { callRoute } from "@/test/helpers/routes";
import { readCatalogGeneration, vacuumCatalogWrites } from "./generation";
import { marketListingJson, searchMarkets } from "./list";
import { listMarketsQuery } from "./shapes";

// The catalog generation (drizzle/0025, lib/catalog/generation.ts) decides whether GET /v0/markets
// answers a kept page with no statement at all. It must move with every write that can change a
// page, whoever writes it (this process, another connection, another instance), never make two
// writers wait on each other, and stay exact through the fold that keeps its table small.

const listingOf = (qs: string) => parseQuery(listMarketsQuery, new URLSearchParams(qs));

async function generation(): Promise<bigint> {
  return BigInt(await readCatalogGeneration(await getDb()));
}

async function writeRows(): Promise<number> {
  const [row] = resultRows<{ n: number }>(await (await getDb()).execute(sql`select count(*)::int as n from catalog_writes`));
  return Number(row?.n ?? 0);
}

/** A second client on the same PostgreSQL database: another instance's writes, which never pass through this process's modules. */
const other = config.databaseUrl === undefined ? undefined : postgres(config.databaseUrl, { max: 2, onnotice: () => undefined });

afterAll(async () => {
  await other?.end({ timeout: 5 });
});

/** Runs a write as another writer would: on another client on PostgreSQL; on PGlite (one connection) as raw SQL, outside lib/catalog's writer. */
async function writeElsewhere(text: string): Promise<void> {
  if (other !== undefined) await other.unsafe(text);
  else await (await getDb()).execute(sql.raw(text));
}

let marketId = "";
let venueMarketId = "";

beforeAll(async () => {
  await clearCatalog();
  const items = [makeEvent({ venue: "polymarket", category: "Politics" }, [{ volume24h: 900 }, { volume24h: 800 }, { volume24h: 700 }])];
  await seedCatalog(items);
  marketId = items[0]?.markets[0]?.id ?? "";
  venueMarketId = items[0]?.markets[0]?.venueMarketId ?? "";
}, 60_000);

describe("the catalog generation", () => {
  it.each([
    ["markets", () => `update markets set title = title where id = '${marketId}'`],
    ["market_quotes", () => `update market_quotes set volume = 17 where id = '${marketId}'`],
    ["market_ranks", () => `update market_ranks set liquidity = 3 where id = '${marketId}'`],
    [
      "market_outcomes",
      () =>
        `insert into market_outcomes (venue, venue_market_id, market, outcome_ids, state, venue_time, received_at, source)
         values ('polymarket', '${venueMarketId}', '${venueMarketId}', '{}', 'open', now(), now(), 'rest')
         on conflict (venue, venue_market_id) do update set state = 'closed'`,
    ],
  ])("moves with a write of %s, whoever writes it, and not with a read", async (_table, write) => {
    const before = await generation();
    expect(await generation()).toBe(before);
    await writeElsewhere(write());
    expect(await generation()).toBeGreaterThan(before);
  });

  it("moves with a write that changes no row (a statement-level trigger: never missed, at worst a page made again)", async () => {
    const before = await generation();
    await writeElsewhere(`delete from market_ranks where id = '00000000-0000-0000-0000-000000000000'`);
    expect(await generation()).toBe(before + 1n);
  });

  it("moves when an event's deletion removes its markets by cascade (the foreign key's own statement on markets)", async () => {
    const doomed = [makeEvent({ venue: "kalshi", category: "Sports" }, [{ volume24h: 5 }])];
    await seedCatalog(doomed);
    const before = await generation();
    await writeElsewhere(`delete from events where id = '${doomed[0]?.event.id ?? ""}'`);
    expect(await generation()).toBeGreaterThan(before);
    const [row] = resultRows<{ n: number }>(await (await getDb()).execute(sql`select count(*)::int as n from markets where id = ${doomed[0]?.markets[0]?.id ?? ""}`));
    expect(row?.n).toBe(0);
  });

  it("stays exact and small through its fold: n write statements add exactly n, in a few dozen rows", async () => {
    const before = await generation();
    for (let i = 0; i < 150; i += 1) await writeElsewhere(`update market_quotes set volume = ${i} where id = '${marketId}'`);
    expect(await generation()).toBe(before + 150n);
    // Every 32nd row folds those below it: at most 32 since the last fold, its sum row, and the sum rows of folds that skipped each other.
    expect(await writeRows()).toBeLessThanOrEqual(40);
  });

  it("refuses to be rewritten or emptied (a smaller sum could name an older catalog)", async () => {
    const db = await getDb();
    await expect(db.execute(sql`update catalog_writes set n = 0`)).rejects.toThrow();
    await expect(db.execute(sql`truncate catalog_writes`)).rejects.toThrow();
  });
});

describe("GET /v0/markets kept by the catalog generation", () => {
  it("answers the kept bytes without a statement while the generation is unchanged, and the page as it is once a write moved it", async () => {
    const db = await getDb();
    const query = listingOf("limit=2");
    const first = await marketListingJson(db, query);
    expect(first.toString("utf8")).toBe(JSON.stringify(await searchMarkets(db, query)));
    expect(await marketListingJson(db, query)).toBe(first);
    const kept = await readCatalogGeneration(db);

    await writeElsewhere(`update market_quotes set volume = 123456.5 where id = '${marketId}'`);
    // The generation decides: told the old one, the listing answers what it kept without reading the catalog.
    expect(await marketListingJson(db, query, kept)).toBe(first);
    // Read as it is, it has moved: the page is made again and shows the write.
    const after = await marketListingJson(db, query);
    expect(after).not.toBe(first);
    expect(after.toString("utf8")).toBe(JSON.stringify(await searchMarkets(db, query)));
    const listed = (JSON.parse(after.toString("utf8")) as { data: Array<{ marketId: string; volume: number | null }> }).data;
    expect(listed.find((m) => m.marketId === marketId)?.volume).toBe(123456.5);
    expect(await marketListingJson(db, query)).toBe(after);
  });

  it("sees a write by another writer between two keyed requests (admission reads the generation on PostgreSQL)", async () => {
    const { key } = await makeKey("pro");
    const page = async () => (await callRoute(listMarkets, { path: "/v0/markets?limit=3", key })).text;
    const before = await page();
    expect(await page()).toBe(before);
    await writeElsewhere(`update markets set title = 'Renamed by another writer' where id = '${marketId}'`);
    const after = await page();
    expect(after).not.toBe(before);
    expect((JSON.parse(after) as { data: Array<{ marketId: string; title: string }> }).data.find((m) => m.marketId === marketId)?.title).toBe(
      "Renamed by another writer",
    );
    expect(after).toBe(JSON.stringify(await searchMarkets(await getDb(), listingOf("limit=3"))));
  });

  // Two open transactions need two connections: PostgreSQL only (PGlite has one, its transactions queue).
  it.skipIf(config.embeddedPostgres)(
    "lets two writers commit without waiting on each other, counts both, and never answers a page kept before either",
    async () => {
      if (other === undefined) throw new Error("no second client");
      const db = await getDb();
      const query = listingOf("limit=3");
      const start = await generation();
      const kept = await marketListingJson(db, query);
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written = () => undefined as void;
      const hasWritten = new Promise<void>((resolve) => (written = resolve));
      // Writer A: 40 statements (past a fold, whose rows it then holds) in one transaction, held open.
      const a = other.begin(async (tx) => {
        for (let i = 0; i < 40; i += 1) await tx.unsafe(`update market_quotes set volume = ${1000 + i} where id = '${marketId}'`);
        written();
        await held;
      });
      await hasWritten;
      // Writer B, while A holds its rows: 40 statements of its own, each bounded by a lock timeout it must never reach.
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        for (let i = 0; i < 40; i += 1) await tx.execute(sql.raw(`update markets set description = 'written by B ${i}' where id = '${marketId}'`));
      });
      expect(await generation()).toBe(start + 40n);
      // B's writes are seen; A's are not yet: the page is made again, with B's description and the volume before A.
      const afterB = await marketListingJson(db, query);
      expect(afterB.toString("utf8")).toBe(JSON.stringify(await searchMarkets(db, query)));
      expect(afterB).not.toBe(kept);
      const seenB = (JSON.parse(afterB.toString("utf8")) as { data: Array<{ marketId: string; description: string | null; volume: number | null }> }).data;
      expect(seenB.find((m) => m.marketId === marketId)?.description).toBe("written by B 39");
      expect(seenB.find((m) => m.marketId === marketId)?.volume).not.toBe(1039);
      release();
      await a;
      expect(await generation()).toBe(start + 80n);
      const afterA = await marketListingJson(db, query);
      expect(afterA).not.toBe(afterB);
      const listed = (JSON.parse(afterA.toString("utf8")) as { data: Array<{ marketId: string; volume: number | null }> }).data;
      expect(listed.find((m) => m.marketId === marketId)?.volume).toBe(1039);
      expect(await writeRows()).toBeLessThanOrEqual(80);
    },
    30_000,
  );
});

describe("vacuumCatalogWrites", () => {
  it("runs on either store and bounds the table: with it between rounds of writes, the heap stops growing", async () => {
    const db = await getDb();
    const heapPages = async () =>
      Number(resultRows<{ pages: number }>(await db.execute(sql`select (pg_relation_size('catalog_writes') / 8192)::int as pages`))[0]?.pages ?? 0);
    const round = async () => {
      for (let i = 0; i < 600; i += 1) await writeElsewhere(`update market_quotes set volume = ${i} where id = '${marketId}'`);
      await vacuumCatalogWrites(db);
    };
    await round();
    const first = await heapPages();
    const generationBefore = await generation();
    await round();
    await round();
    // Unvacuumed, each round of 600 statements adds ~2.5 pages (a page per ~250).
    expect(await heapPages()).toBeLessThanOrEqual(first + 1);
    expect(await generation()).toBe(generationBefore + 1200n);
  }, 60_000);
});
