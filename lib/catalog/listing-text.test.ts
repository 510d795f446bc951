import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { parseQuery } from "@/lib/input";
import { encodeCursor } from "./cursor";
import { listingParams, listingText, marketPageRows, marketPageVersions } from "./list";
import { listMarketsQuery } from "./shapes";

// A listing page's statement text is kept per shape (lib/catalog/list.ts `listingText`): every
// page of a shape must bind exactly what a fresh render of its own statement binds.

const dialect = new PgDialect({ casing: "snake_case" });

async function statementOf(qs: string, read: "rows" | "versions" = "rows") {
  const query = parseQuery(listMarketsQuery, new URLSearchParams(qs));
  let captured: SQL | undefined;
  await (read === "rows" ? marketPageRows : marketPageVersions)(query, async (statement) => {
    captured = statement;
    return [{ page: "[]" }];
  });
  if (captured === undefined) throw new Error(`no statement for ${qs}`);
  return { query, statement: captured };
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

// Two pages of each shape, with different values: the second is answered from the kept text.
const shapes: Array<[string, string]> = [
  ["", "limit=7&offset=30"],
  ["closed=true", "closed=true&limit=3"],
  ["category=Sports&exchange=kalshi", "category=Crypto&exchange=polymarket&offset=5"],
  ["exchange=kalshi&sort=liquidity", "exchange=polymarket&sort=liquidity&limit=2"],
  [
    `cursor=${encodeCursor({ sort: "volume24h", key: 1234.5, id: id(1) })}`,
    `limit=9&cursor=${encodeCursor({ sort: "volume24h", key: 0.25, id: id(2) })}`,
  ],
  [
    `sort=liquidity&cursor=${encodeCursor({ sort: "liquidity", key: null, id: id(3) })}`,
    `sort=liquidity&category=Sports&cursor=${encodeCursor({ sort: "liquidity", key: null, id: id(4) })}`,
  ],
  [
    `sort=resolutionDate&cursor=${encodeCursor({ sort: "resolutionDate", key: "2027-01-02T03:04:05.678901Z", id: id(5) })}`,
    `sort=resolutionDate&cursor=${encodeCursor({ sort: "resolutionDate", key: "2026-06-01T00:00:00.000000Z", id: id(6) })}`,
  ],
  [
    `sort=newest&cursor=${encodeCursor({ sort: "newest", key: "2026-01-02T03:04:05.000001Z", id: id(7) })}`,
    `sort=newest&exchange=kalshi&cursor=${encodeCursor({ sort: "newest", key: "2026-03-02T03:04:05.000001Z", id: id(8) })}`,
  ],
];

describe("listingText: a listing page's statement kept per shape", () => {
  it.each(shapes)("binds what a fresh render binds (%s, then %s)", async (first, second) => {
    for (const qs of [first, second, first]) {
      const { query, statement } = await statementOf(qs);
      const rendered = dialect.sqlToQuery(statement);
      expect(listingText(query, statement)).toEqual({ text: rendered.sql, params: rendered.params });
      // The binding order `listingText` checks each render against: if it drifted, the text would
      // never be kept and every page rendered again (correct, but the saving silently gone).
      expect(listingParams(query)).toEqual(rendered.params);
    }
  });

  it.each(shapes)("binds what a fresh render binds, answering versions (%s, then %s)", async (first, second) => {
    for (const qs of [first, second, first]) {
      const { query, statement } = await statementOf(qs, "versions");
      const rendered = dialect.sqlToQuery(statement);
      expect(listingText(query, statement, "versions")).toEqual({ text: rendered.sql, params: rendered.params });
      expect(listingParams(query)).toEqual(rendered.params);
    }
  });

  it("keeps the rows and the versions statements of one shape apart", async () => {
    const rows = await statementOf("limit=4&offset=3");
    const versions = await statementOf("limit=4&offset=3", "versions");
    const rowsText = listingText(rows.query, rows.statement, "rows").text;
    const versionsText = listingText(versions.query, versions.statement, "versions").text;
    expect(versionsText).not.toBe(rowsText);
    expect(versionsText).toBe(dialect.sqlToQuery(versions.statement).sql);
    // Kept: each kind answers its own text again.
    expect(listingText(rows.query, rows.statement, "rows").text).toBe(rowsText);
    expect(listingText(versions.query, versions.statement, "versions").text).toBe(versionsText);
  });

  it("keeps one text for the pages of one shape and another for another shape", async () => {
    const a = await statementOf("limit=5");
    const b = await statementOf("limit=6&offset=12");
    const c = await statementOf("category=Sports");
    expect(listingText(b.query, b.statement).text).toBe(listingText(a.query, a.statement).text);
    expect(listingText(c.query, c.statement).text).not.toBe(listingText(a.query, a.statement).text);
  });
});
