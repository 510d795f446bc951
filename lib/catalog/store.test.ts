import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { getDb, resultRows } from "@/lib/db";
import { clearCatalog, makeEvent } from "@/test/helpers/catalog";
import type { NormalizedEvent } from "./normalize";
import { searchMarkets } from "./list";
import { getEventOrThrow, getMarketOrThrow } from "./resolve";
import { listMarketsQuery } from "./shapes";
import { MARKET_BATCH, markMarketsClosed, RANK_STEP, unseenOpenMarkets, upsertCatalog } from "./store";

// Re-ingestion: unchanged rows are not rewritten (no new row version), and no stored field is
// ever lost or blanked by a poll that lacks it.

type Stored = Record<string, unknown> & { id: string; version: string };

/** Every column of every catalog row, plus its row version (xmin changes on every rewrite). */
async function snapshot(table: "markets" | "market_ranks" | "events" | "market_quotes" | "event_quotes"): Promise<Map<string, Stored>> {
  const db = await getDb();
  // xmax is set by a row lock too: equal xmax means not even locked.
  const result = await db.execute(sql`select xmin::text as version, xmax::text as locked_by, * from ${sql.raw(table)} order by id`);
  const rows = resultRows<Stored>(result);
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
    const [before, wide] = [await snapshot("market_ranks"), await snapshot("markets")];
    const changed = laterPoll(poll);
    const target = changed[0]?.markets[1];
    if (target === undefined) throw new Error("missing market");
    target.volume24h = 777;
    target.outcomes = target.outcomes.map((o, i) => ({ ...o, price: i === 0 ? 0.7 : 0.3, priceChange24h: i === 0 ? -0.2 : 0.2 }));
    target.slug = null; // a sparse value in the same poll is still kept
    await upsertCatalog(await getDb(), changed);
    // Only rank keys and prices moved (the sparse slug is kept): the wide row is not rewritten.
    expect(await snapshot("markets")).toEqual(wide);
    const after = await snapshot("market_ranks");
    for (const [id, row] of before) {
      const now = after.get(id);
      if (now === undefined) throw new Error(`row ${id} lost`);
      if (id !== target.id) {
        expect(now).toEqual(row);
        continue;
      }
      expect(now.version).not.toBe(row.version);
      expect(now).toMatchObject({ volume24h: 777, abs_change24h: 0.2, first_seen_at: row.first_seen_at });
      const untouched = Object.keys(row).filter((k) => !["version", "locked_by", "volume24h", "abs_change24h"].includes(k));
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

describe("market_ranks, the listing's copy of each market (rank keys and filter columns)", () => {
  /** Markets whose `market_ranks` row is missing or whose copied columns differ from the market's. */
  const drift = async () =>
    resultRows<{ id: string }>(
      await (await getDb()).execute(sql`select m.id from markets m left join market_ranks k on k.id = m.id
        where k.id is null or (k.venue, k.category, k.closed, k.resolution_date, k.first_seen_at, k.search_vector)
          is distinct from (m.venue, m.category, m.closed, m.resolution_date, m.first_seen_at, m.search_vector)`),
    );
  const listedIds = async (params: Record<string, string>) =>
    (await searchMarkets(await getDb(), listMarketsQuery.parse(params))).data.map((m) => m.marketId);

  it("follows inserts, a changed category, title and date, and a closure, and the listing reads it", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket", category: "Politics" }, [{ volume24h: 500 }, { volume24h: 400 }])];
    await upsertCatalog(await getDb(), poll);
    const [first, second] = poll[0]?.markets.map((m) => m.id ?? "") ?? [];
    expect(await drift()).toEqual([]);
    expect((await snapshot("market_ranks")).size).toBe(2);

    const changed = laterPoll(poll).map((e) => ({
      ...e,
      markets: e.markets.map((m) =>
        m.id === first ? { ...m, category: "Sports", title: "Quokka derby final", resolutionDate: new Date("2028-02-03T00:00:00Z") } : m,
      ),
    }));
    await upsertCatalog(await getDb(), changed);
    expect(await drift()).toEqual([]);
    expect(await listedIds({ category: "Sports" })).toEqual([first]);
    expect(await listedIds({ category: "Politics" })).toEqual([second]);
    expect(await listedIds({ query: "quokka" })).toEqual([first]);
    expect(await listedIds({ query: "quokka", exchange: "polymarket" })).toEqual([first]);

    await markMarketsClosed(await getDb(), [{ id: second ?? "", eventId: poll[0]?.event.id ?? "", status: "closed" }]);
    expect(await drift()).toEqual([]);
    expect(await listedIds({})).toEqual([first]);
    expect(await listedIds({ closed: "true" })).toEqual([first, second]);
  });
});

describe("upsertCatalog's skip of rows sent exactly as before (content_hash)", () => {
  const hashes = async () => {
    const result = await (await getDb()).execute(sql`select id, content_hash from markets order by id`);
    const rows = resultRows<{ id: string; content_hash: string | null }>(result);
    return new Map(rows.map((r) => [r.id, r.content_hash]));
  };

  it("stores a hash per written row, changes it when the row changes, and skips a poll that repeats it", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 5 }, { volume24h: 6 }])];
    await upsertCatalog(await getDb(), poll);
    const first = await hashes();
    expect([...first.values()].every((h) => typeof h === "string" && /^[0-9a-f]{32}$/.test(h))).toBe(true);
    const before = await snapshot("markets");
    await upsertCatalog(await getDb(), laterPoll(poll));
    expect(await snapshot("markets")).toEqual(before);
    const renamed = laterPoll(poll).map((e) => ({ ...e, markets: e.markets.map((m, i) => (i === 0 ? { ...m, title: "Renamed" } : m)) }));
    await upsertCatalog(await getDb(), renamed);
    const second = await hashes();
    const [changedId, sameId] = poll[0]?.markets.map((m) => m.id ?? "") ?? [];
    expect(second.get(changedId ?? "")).not.toBe(first.get(changedId ?? ""));
    expect(second.get(sameId ?? "")).toBe(first.get(sameId ?? ""));
    expect((await snapshot("markets")).get(changedId ?? "")?.title).toBe("Renamed");
    // Prices and volumes are not part of the descriptive hash: moving them keeps it.
    const moved = laterPoll(renamed).map((e) => ({ ...e, markets: e.markets.map((m) => ({ ...m, volume24h: 50 })) }));
    await upsertCatalog(await getDb(), moved);
    expect(await hashes()).toEqual(second);
  });

  it("a closure clears the hash, so the next poll that lists the market open again reopens it", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "kalshi" }, [{ volume24h: 5 }])];
    await upsertCatalog(await getDb(), poll);
    const market = poll[0]?.markets[0];
    const { markMarketsClosed } = await import("./store");
    await markMarketsClosed(await getDb(), [{ id: market?.id ?? "", eventId: market?.eventId ?? "", status: "finalized" }]);
    expect((await hashes()).get(market?.id ?? "")).toBeNull();
    // The venue lists it again, unchanged and open: the full comparison sees the closure and undoes it.
    await upsertCatalog(await getDb(), laterPoll(poll));
    const row = (await snapshot("markets")).get(market?.id ?? "");
    expect(row?.closed).toBe(false);
    expect(row?.status).toBe("active");
    expect((await hashes()).get(market?.id ?? "")).toMatch(/^[0-9a-f]{32}$/);
  });

  it("a row stored without a hash (written before the column existed) is compared in full and not rewritten", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 7 }])];
    await upsertCatalog(await getDb(), poll);
    // As drizzle/0024 leaves such a row: no copies on its quote row either (a poll reads those first).
    await (await getDb()).execute(sql`update markets set content_hash = null`);
    await (await getDb()).execute(sql`update market_quotes set content_hash = null, rank_volume24h = null, rank_abs_change24h = null, rank_liquidity = null`);
    const before = await snapshot("markets");
    await upsertCatalog(await getDb(), laterPoll(poll));
    expect(await snapshot("markets")).toEqual(before);
  });
});

describe("a re-poll whose prices and volumes changed (market_quotes)", () => {
  const listed = async () =>
    (await searchMarkets(await getDb(), listMarketsQuery.parse({ exchange: "polymarket" }))).data;

  it("is visible in the listing and the market answer, and rewrites no descriptive row", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 1000 }, { volume24h: 500 }])];
    await upsertCatalog(await getDb(), poll);
    const [markets, quotes, firstList] = [await snapshot("markets"), await snapshot("market_quotes"), await listed()];
    expect(quotes.size).toBe(2);

    // Every price moves and every volume moves within the rank step: a poll like most polls.
    const next = laterPoll(poll).map((e) => ({
      ...e,
      markets: e.markets.map((m) => ({
        ...m,
        volume24h: (m.volume24h ?? 0) * (1 + RANK_STEP.relative / 2),
        volume: 6000,
        openInterest: 75,
        outcomes: m.outcomes.map((o) => ({ ...o, price: Math.round((1 - o.price) * 100) / 100, priceChange24h: 0.015 })),
      })),
    }));
    await upsertCatalog(await getDb(), next);

    // No markets row was written or locked: its indexes (trigram GIN included) took no entry.
    expect(await snapshot("markets")).toEqual(markets);
    const newQuotes = await snapshot("market_quotes");
    for (const [id, row] of quotes) expect(newQuotes.get(id)?.version, id).not.toBe(row.version);

    const list = await listed();
    expect(list.map((m) => m.marketId)).toEqual(firstList.map((m) => m.marketId));
    const sent = next[0]?.markets ?? [];
    for (const market of sent) {
      const shown = list.find((m) => m.marketId === market.id);
      const answer = await getMarketOrThrow(await getDb(), market.id ?? "");
      for (const m of [shown, answer]) {
        expect(m?.volume24h).toBe(market.volume24h);
        expect(m?.volume).toBe(6000);
        expect(m?.openInterest).toBe(75);
        expect(m?.outcomes.map((o) => o.price)).toEqual([0.4, 0.6]);
        expect(m?.yes?.priceChange24h).toBe(0.015);
        // updatedAt is the quote's poll time, later than the descriptive row's.
        expect(m?.updatedAt).toBe(market.lastSeenAt?.toISOString());
      }
    }

    // The same poll again writes no quote either.
    const settled = await snapshot("market_quotes");
    await upsertCatalog(await getDb(), next);
    expect(await snapshot("market_quotes")).toEqual(settled);
    expect(await snapshot("markets")).toEqual(markets);
  });

  it("a volume that moves past the rank step rewrites the rank key, and the listing's order follows it", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 1000 }, { volume24h: 500 }])];
    await upsertCatalog(await getDb(), poll);
    const [top, second] = (await listed()).map((m) => m.marketId);
    const [before, wide] = [await snapshot("market_ranks"), await snapshot("markets")];
    const overtaken = laterPoll(poll).map((e) => ({
      ...e,
      markets: e.markets.map((m) => (m.id === second ? { ...m, volume24h: 2000 } : m)),
    }));
    await upsertCatalog(await getDb(), overtaken);
    // The rank move rewrites the narrow `market_ranks` row only, never the market's wide row.
    expect(await snapshot("markets")).toEqual(wide);
    const after = await snapshot("market_ranks");
    expect(after.get(second ?? "")?.volume24h).toBe(2000);
    expect(after.get(second ?? "")?.version).not.toBe(before.get(second ?? "")?.version);
    expect(after.get(top ?? "")).toEqual(before.get(top ?? ""));
    expect((await listed()).map((m) => [m.marketId, m.volume24h])).toEqual([
      [second, 2000],
      [top, 1000],
    ]);
  });

  it("a new market's quote is written with it, and a changed label reaches markets and the answer", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{}])];
    await upsertCatalog(await getDb(), poll);
    const relabelled = laterPoll(poll).map((e) => ({
      ...e,
      markets: e.markets.map((m) => ({ ...m, outcomes: m.outcomes.map((o, i) => ({ ...o, label: i === 0 ? "Above" : "Below" })) })),
    }));
    await upsertCatalog(await getDb(), relabelled);
    const id = poll[0]?.markets[0]?.id ?? "";
    const stored = (await snapshot("markets")).get(id);
    expect((stored?.outcomes as Array<{ label: string }>).map((o) => o.label)).toEqual(["Above", "Below"]);
    // markets keeps what describes an outcome, never its price.
    expect(stored?.outcomes).toEqual(relabelled[0]?.markets[0]?.outcomes.map((o) => ({ outcomeId: o.outcomeId, label: o.label })));
    const answer = await getMarketOrThrow(await getDb(), id);
    expect(answer.outcomes.map((o) => [o.label, o.price])).toEqual([
      ["Above", 0.6],
      ["Below", 0.4],
    ]);
  });
});

describe("events' volumes (event_quotes)", () => {
  it("a new event volume within the step rewrites no events row and is what the event answer shows", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "kalshi" }, [{ volume24h: 400 }, { volume24h: 300 }])];
    await upsertCatalog(await getDb(), poll);
    const before = await snapshot("events");
    const next = laterPoll(poll).map((e) => ({ ...e, event: { ...e.event, volume24h: 720, volume: 9000 } }));
    await upsertCatalog(await getDb(), next);
    expect(await snapshot("events")).toEqual(before);
    const answer = await getEventOrThrow(await getDb(), poll[0]?.event.id ?? "");
    expect(answer.volume24h).toBe(720);
    expect(answer.volume).toBe(9000);
    expect(answer.updatedAt).toBe(next[0]?.event.lastSeenAt?.toISOString());
  });
});

describe("rows whose hash an older row format wrote ('' after drizzle/0016)", () => {
  it("are rewritten once with this format's hash, then skipped on the hash alone", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 7 }])];
    await upsertCatalog(await getDb(), poll);
    const written = await snapshot("markets");
    await (await getDb()).execute(sql`update markets set content_hash = ''`);
    await (await getDb()).execute(sql`update events set content_hash = ''`);
    // Such rows predate drizzle/0024 and 0029: their quote rows carry no copies (a poll reads those first).
    await (await getDb()).execute(sql`update market_quotes set content_hash = null, rank_volume24h = null, rank_abs_change24h = null, rank_liquidity = null`);
    await (await getDb()).execute(sql`update event_quotes set content_hash = null, rank_volume24h = null, rank_abs_change24h = null, rank_liquidity = null`);
    await upsertCatalog(await getDb(), laterPoll(poll));
    const rewritten = await snapshot("markets");
    for (const [id, row] of rewritten) {
      expect(row.content_hash).toBe(written.get(id)?.content_hash);
      expect(row.version).not.toBe(written.get(id)?.version);
    }
    expect([...(await snapshot("events")).values()].every((row) => typeof row.content_hash === "string" && row.content_hash !== "")).toBe(true);
    await upsertCatalog(await getDb(), laterPoll(poll));
    expect(await snapshot("markets")).toEqual(rewritten);
  });
});

describe("a poll of several batches (written BATCH_WRITERS at a time, quotes as typed arrays)", () => {
  it("stores every market and quote once, as sent, and a second identical poll rewrites none", async () => {
    await clearCatalog();
    // 2.5 batches of markets, with values an array literal must quote or null: a label with a
    // quote and a backslash, a missing volume, a non-finite open interest (JSON made it null).
    const poll = Array.from({ length: Math.ceil((MARKET_BATCH * 2.5) / 4) }, (_, e) =>
      makeEvent({ venue: "polymarket" }, Array.from({ length: 4 }, (_, k) => ({
        volume24h: e * 4 + k + 0.25,
        volume: k === 1 ? null : 10 * e,
        openInterest: k === 2 ? Number.POSITIVE_INFINITY : 3,
        outcomes: [
          { outcomeId: `o-${e}-${k}-a`, label: `Yes "${k}" \\ {a,b}`, price: 0.125, priceChange24h: -0.5 },
          { outcomeId: `o-${e}-${k}-b`, label: "No", price: 0.875, priceChange24h: 0.5 },
        ],
      }))),
    );
    const sent = poll.flatMap((e) => e.markets);
    const done: number[] = [];
    expect(await upsertCatalog(await getDb(), poll, (n) => done.push(n))).toBe(sent.length);
    expect(done.at(-1)).toBe(sent.length);
    const [markets, quotes] = [await snapshot("markets"), await snapshot("market_quotes")];
    expect(markets.size).toBe(sent.length);
    expect(quotes.size).toBe(sent.length);
    for (const m of sent) {
      const quote = quotes.get(m.id ?? "");
      expect(quote?.outcomes).toEqual(m.outcomes);
      expect(quote?.volume24h).toBe(m.volume24h);
      expect(quote?.volume).toBe(m.volume ?? null);
      expect(quote?.open_interest).toBe(Number.isFinite(m.openInterest) ? m.openInterest : null);
    }
    await upsertCatalog(await getDb(), laterPoll(poll));
    expect(await snapshot("markets")).toEqual(markets);
    expect(await snapshot("market_quotes")).toEqual(quotes);
  });
});

describe("each row's poll time (quoted_at, last_seen_at)", () => {
  it("is the row's own instant, however the rows of one poll repeat or alternate their instants, and the call's time without one", async () => {
    await clearCatalog();
    const [a, b] = [new Date(Date.UTC(2026, 10, 28, 1)), new Date(Date.UTC(2026, 10, 28, 2))];
    // Instants as a poll may stamp them: repeated, alternating, an equal instant in another Date, none.
    const stamps = [a, a, b, a, new Date(b.getTime()), undefined, b];
    const poll = [makeEvent({ venue: "polymarket" }, stamps.map((_, i) => ({ volume24h: 100 + i })))].map((e) => ({
      ...e,
      markets: e.markets.map((m, i) => ({ ...m, lastSeenAt: stamps[i] })),
    }));
    const sent = poll[0]?.markets ?? [];
    const started = Date.now();
    // A timestamp column as the driver answers it (a Date, or text from PGlite's raw rows).
    const instant = (value: unknown) => new Date(value as string | Date).getTime();
    await upsertCatalog(await getDb(), poll);
    const expectStamps = async (prices: number[]) => {
      const quotes = await snapshot("market_quotes");
      const rows = await snapshot("markets");
      sent.forEach((m, i) => {
        const quote = quotes.get(m.id ?? "");
        const stamp = stamps[i];
        const quotedAt = instant(quote?.quoted_at);
        if (stamp === undefined) expect(quotedAt).toBeGreaterThanOrEqual(started - 1000);
        else expect(quotedAt).toBe(stamp.getTime());
        expect((quote?.outcomes as Array<{ price: number }>)[0]?.price).toBe(prices[i]);
        if (stamp !== undefined) expect(instant(rows.get(m.id ?? "")?.last_seen_at)).toBe(stamp.getTime());
      });
    };
    await expectStamps(sent.map((m) => m.outcomes[0]?.price ?? -1));
    // A re-poll moving every price (the quote statement alone) stamps each quote with its own instant again.
    const [c, d] = [new Date(Date.UTC(2026, 10, 28, 3)), new Date(Date.UTC(2026, 10, 28, 4))];
    stamps.splice(0, stamps.length, d, c, c, d, new Date(c.getTime()), undefined, c);
    const moved = poll.map((e) => ({
      ...e,
      markets: e.markets.map((m, i) => ({ ...m, lastSeenAt: stamps[i], outcomes: m.outcomes.map((o) => ({ ...o, price: 1 - o.price })) })),
    }));
    await upsertCatalog(await getDb(), moved);
    const quotes = await snapshot("market_quotes");
    sent.forEach((m, i) => {
      const stamp = stamps[i];
      const quotedAt = instant(quotes.get(m.id ?? "")?.quoted_at);
      if (stamp === undefined) expect(quotedAt).toBeGreaterThanOrEqual(started - 1000);
      else expect(quotedAt).toBe(stamp.getTime());
    });
  });
});

describe("a batch whose write fails", () => {
  it("rejects the call and leaves nothing of its batch: not even the quotes its first statement updated", async () => {
    await clearCatalog();
    const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 5 }, { volume24h: 6 }])];
    await upsertCatalog(await getDb(), poll);
    const [markets, quotes, events] = [await snapshot("markets"), await snapshot("market_quotes"), await snapshot("events")];
    // Every price moves (the quote statement updates them), and a new market names an event that
    // exists nowhere: its upsert, later in the same transaction, breaks the foreign key.
    const [first] = laterPoll(poll);
    const stray = makeEvent({ venue: "polymarket" }, [{}]).markets.map((m) => ({ ...m, eventId: "00000000-0000-4000-8000-000000000000" }));
    const broken: NormalizedEvent[] = first === undefined ? [] : [{
      event: first.event,
      markets: [...first.markets.map((m) => ({ ...m, outcomes: m.outcomes.map((o) => ({ ...o, price: 1 - o.price })) })), ...stray],
    }];
    await expect(upsertCatalog(await getDb(), broken)).rejects.toThrow();
    // The same row versions with the same values (a rolled-back update leaves its xmax on the row it locked).
    const unlocked = (rows: Map<string, Stored>) => [...rows.values()].map(({ locked_by: _, ...row }) => row);
    expect(unlocked(await snapshot("market_quotes"))).toEqual(unlocked(quotes));
    expect(unlocked(await snapshot("markets"))).toEqual(unlocked(markets));
    expect(unlocked(await snapshot("events"))).toEqual(unlocked(events));
  });
});

describe("the quote rows' copies of the descriptive hash and the rank keys (market_quotes: drizzle/0024, event_quotes: 0029)", () => {
  /** Markets and events whose quote row's copies differ from their row's hash or rank keys (`market_ranks`' for a market, the `events` row's for an event). */
  const stale = async () =>
    resultRows<{ id: string }>(
      await (await getDb()).execute(sql`select q.id from market_quotes as q join markets as m on m.id = q.id join market_ranks as k on k.id = q.id
        where (q.content_hash, q.rank_volume24h, q.rank_abs_change24h, q.rank_liquidity) is distinct from (m.content_hash, k.volume24h, k.abs_change24h, k.liquidity)
        union all
        select q.id from event_quotes as q join events as e on e.id = q.id
        where (q.content_hash, q.rank_volume24h, q.rank_abs_change24h, q.rank_liquidity) is distinct from (e.content_hash, e.volume24h, e.abs_change24h, e.liquidity)`),
    );
  /** A table's rows without their row versions and first-seen times (which differ between two writes of the same polls). */
  const rows = async (table: "markets" | "market_ranks" | "market_quotes" | "events" | "event_quotes") =>
    [...(await snapshot(table)).values()].map((row) => {
      const { version: _version, locked_by: _locked, first_seen_at: _first, ...rest } = row;
      return rest;
    });

  /**
   * Polls of every kind, in order: the first, prices (and the event's volume within its step) moved,
   * a rank moved (the event's too), a market and the event renamed with ranks moved, a closed
   * market listed open again with new volumes.
   */
  function polls(): Array<NormalizedEvent[] | { closed: number }> {
    const first = [makeEvent({ venue: "polymarket" }, [{ volume24h: 1000, liquidity: 40 }, { volume24h: 500 }, { volume24h: 20, liquidity: null }])];
    type Event = NormalizedEvent["event"];
    const at = (
      hours: number,
      items: NormalizedEvent[],
      change: (m: NormalizedEvent["markets"][number], i: number) => NormalizedEvent["markets"][number],
      changeEvent: (e: Event) => Event = (e) => e,
    ) =>
      items.map((e) => ({
        event: { ...changeEvent(e.event), lastSeenAt: new Date(Date.UTC(2026, 10, 28, hours)) },
        markets: e.markets.map((m, i) => ({ ...change(m, i), lastSeenAt: new Date(Date.UTC(2026, 10, 28, hours)) })),
      }));
    const prices = at(1, first, (m) => ({ ...m, volume24h: (m.volume24h ?? 0) + 1, outcomes: m.outcomes.map((o) => ({ ...o, price: 1 - o.price })) }), (e) => ({ ...e, volume24h: (e.volume24h ?? 0) + 1 }));
    const ranked = at(2, prices, (m, i) => (i === 0 ? { ...m, volume24h: 5000, liquidity: 400 } : m), (e) => ({ ...e, volume24h: 9000 }));
    const renamed = at(3, ranked, (m, i) => (i === 1 ? { ...m, title: "Renamed market", volume24h: 4000 } : m), (e) => ({ ...e, title: "Renamed event", volume24h: 20000 }));
    const reopened = at(5, renamed, (m) => ({ ...m, volume: 7000 }), (e) => ({ ...e, volume: 8000 }));
    return [first, prices, ranked, renamed, { closed: 2 }, reopened];
  }

  /** Writes `steps` on an empty catalog, each poll after the copies were cleared when `fullPath` (as drizzle/0024 leaves every row). */
  async function write(steps: Array<NormalizedEvent[] | { closed: number }>, fullPath: boolean, check?: () => Promise<void>) {
    await clearCatalog();
    const first = steps[0] as NormalizedEvent[];
    for (const step of steps) {
      if ("closed" in step) {
        const market = first[0]?.markets[step.closed];
        await markMarketsClosed(await getDb(), [{ id: market?.id ?? "", eventId: market?.eventId ?? "", status: "closed" }]);
      } else {
        if (fullPath) {
          await (await getDb()).execute(sql`update market_quotes set content_hash = null, rank_volume24h = null, rank_abs_change24h = null, rank_liquidity = null`);
          await (await getDb()).execute(sql`update event_quotes set content_hash = null, rank_volume24h = null, rank_abs_change24h = null, rank_liquidity = null`);
        }
        await upsertCatalog(await getDb(), step);
      }
      await check?.();
    }
    return {
      markets: await rows("markets"),
      ranks: await rows("market_ranks"),
      quotes: await rows("market_quotes"),
      events: await rows("events"),
      eventQuotes: await rows("event_quotes"),
    };
  }

  it("follow every kind of poll, and a poll that reads them writes the rows the full path writes", async () => {
    const steps = polls();
    const read = await write(steps, false, async () => expect(await stale()).toEqual([]));
    // The rank move and the rename reached market_ranks; every poll's quotes reached market_quotes.
    const ranks = new Map(read.ranks.map((row) => [row.id, row]));
    const [ranked, renamed] = (steps[0] as NormalizedEvent[])[0]?.markets.map((m) => m.id ?? "") ?? [];
    expect(ranks.get(ranked ?? "")?.volume24h).toBe(5000);
    expect(ranks.get(ranked ?? "")?.liquidity).toBe(400);
    expect(ranks.get(renamed ?? "")?.volume24h).toBe(4000);
    expect(read.quotes.every((row) => row.volume === 7000)).toBe(true);
    // The event's rank move and rename reached events; its last volumes reached event_quotes.
    expect(read.events.map((row) => [row.title, row.volume24h])).toEqual([["Renamed event", 20000]]);
    expect(read.eventQuotes.map((row) => [row.volume24h, row.volume])).toEqual([[20000, 8000]]);
    // The same polls again on an empty catalog, each read by the full path (every copy cleared first): the same rows.
    expect(await write(steps, true)).toEqual(read);
  });

  // Two writers at once need two connections: PostgreSQL only (PGlite has one, its transactions queue).
  it.skipIf(config.embeddedPostgres)(
    "a quote row whose copies another writer changed while a poll waited on it goes down the full path, not overwritten",
    async () => {
      await clearCatalog();
      const poll = [makeEvent({ venue: "polymarket" }, [{ volume24h: 300 }])];
      await upsertCatalog(await getDb(), poll);
      const id = poll[0]?.markets[0]?.id ?? "";
      const db = await getDb();
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked = () => undefined as void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // The other writer: changes the copies and holds the row until told to commit.
      const other = db.transaction(async (tx) => {
        await tx.execute(sql`update market_quotes set content_hash = 'another writer' where id = ${id}`);
        locked();
        await held;
      });
      await isLocked;
      const next = laterPoll(poll).map((e) => ({ ...e, markets: e.markets.map((m) => ({ ...m, outcomes: m.outcomes.map((o) => ({ ...o, price: 1 - o.price })) })) }));
      const polling = upsertCatalog(db, next);
      // The poll read the copies before the other writer commits: wait until its update waits on the row.
      for (let waited = 0; ; waited += 1) {
        const [row] = resultRows<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
        );
        if ((row?.n ?? 0) > 0) break;
        if (waited > 200) throw new Error("the poll never waited on the row");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      release();
      await other;
      await polling;
      expect(await stale()).toEqual([]);
      const [quote] = resultRows<{ outcomes: Array<{ price: number }> }>(await db.execute(sql`select outcomes from market_quotes where id = ${id}`));
      expect(quote?.outcomes.map((o) => o.price)).toEqual(next[0]?.markets[0]?.outcomes.map((o) => o.price));
    },
  );
});
