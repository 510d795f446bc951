import { describe, expect, it } from "vitest";
import { classifyPair, comparePicks, type Relation } from "./classify";
import { extractFeatures, parseInterval, type MatchInput } from "./extract";

let n = 0;
/** A Polymarket-style market: "<event> - <question>", the group label as the Yes label. */
function pm(eventTitle: string, question: string, label: string | null = null, extra: Partial<MatchInput> = {}): MatchInput {
  n += 1;
  return {
    id: `pm-${n}`,
    venue: "polymarket",
    eventId: `pe-${n}`,
    category: "Politics",
    title: `${eventTitle} - ${question}`,
    eventTitle,
    yesLabel: label ?? question,
    description: null,
    resolutionDate: new Date("2026-12-31T12:00:00Z"),
    ...extra,
  };
}

/** A Kalshi-style market: the event title as title, yes_sub_title as label, the rule sentence as description. */
function kx(eventTitle: string, label: string, rule: string, extra: Partial<MatchInput> = {}): MatchInput {
  n += 1;
  return {
    id: `kx-${n}`,
    venue: "kalshi",
    eventId: `ke-${n}`,
    category: "Politics",
    title: eventTitle,
    eventTitle,
    yesLabel: label,
    description: `If ${rule}, then the market resolves to Yes.`,
    resolutionDate: new Date("2027-01-07T15:00:00Z"),
    ...extra,
  };
}

const idf = () => 1;
const relate = (a: MatchInput, b: MatchInput): Relation | undefined => classifyPair(extractFeatures(a), extractFeatures(b), idf)?.relation;

describe("thresholds, directions and ranges", () => {
  it.each([
    ["Above 3.50%", { unit: "pct", lo: 3.5, loStrict: true, hi: null }],
    ["$120k or above", { unit: "usd", lo: 120000, loStrict: false, hi: null }],
    ["≥3.0%", { unit: "pct", lo: 3, loStrict: false, hi: null }],
    ["at least 25 bps", { unit: "bps", lo: 25, hi: null }],
    ["more than $300M", { unit: "usd", lo: 300e6, loStrict: true, hi: null }],
    ["90°F or below", { unit: "deg", lo: null, hi: 90, hiStrict: false }],
    ["91-92°F", { unit: "deg", lo: 91, hi: 92 }],
    ["between 3% and 4%", { unit: "pct", lo: 3, hi: 4 }],
    ["Above 2.9M", { unit: "count", lo: 2.9e6, loStrict: true }],
    ["Cut 25bps", { unit: "bps", lo: -25, hi: -25 }],
    ["Cut >25bps", { unit: "bps", lo: null, hi: -25, hiStrict: true }],
    ["25+ bps increase", { unit: "bps", lo: 25, hi: null }],
    ["No change", { unit: "bps", lo: 0, hi: 0 }],
    ["Fed maintains rate", { unit: "bps", lo: 0, hi: 0 }],
    ["under $3.20", { unit: "usd", lo: null, hi: 3.2, hiStrict: true }],
  ])("%s", (text, expected) => {
    expect(parseInterval(text)).toMatchObject(expected);
  });

  it("reads no threshold where there is none", () => {
    expect(parseInterval("Will the Democrats win the Senate?")).toBeNull();
    expect(parseInterval("Donald Trump")).toBeNull();
  });
});

describe("dates and deadlines", () => {
  const end = (i: MatchInput) => {
    const t = extractFeatures(i).time;
    return t === null ? null : { kind: t.kind, end: new Date(t.end).toISOString().slice(0, 10), hour: t.hour };
  };
  it.each([
    ["by December 31, 2026", { kind: "window", end: "2027-01-01" }],
    ["before 2027", { kind: "window", end: "2027-01-01" }],
    ["before Jan 1, 2027", { kind: "window", end: "2027-01-01" }],
    ["by September 30, 2026", { kind: "window", end: "2026-10-01" }],
    ["in 2026", { kind: "window", end: "2027-01-01" }],
    ["in June 2026", { kind: "window", end: "2026-07-01" }],
    ["on Jul 15, 2026", { kind: "instant", end: "2026-07-16" }],
    ["at the end of 2026", { kind: "instant", end: "2027-01-01" }],
    ["in Q2 2026", { kind: "window", end: "2026-07-01" }],
    ["by the third quarter of 2026", { kind: "window", end: "2026-10-01" }],
  ])("%s", (phrase, expected) => {
    expect(end(pm("Event", `Will it happen ${phrase}?`))).toMatchObject(expected);
  });

  it("takes a missing year from the resolution date", () => {
    const t = extractFeatures(pm("Temps", "Will it be hot on July 15?", null, { resolutionDate: new Date("2026-07-16T12:00:00Z") })).time;
    expect(new Date(t?.start ?? 0).toISOString().slice(0, 10)).toBe("2026-07-15");
  });

  it("reads the hour of an instant from the title or the rules", () => {
    expect(end(kx("Bitcoin price on Dec 31, 2026 at 5pm EST?", "$100,000 or above", "BRTI is above 99999.99 at 5 PM EST"))?.hour).toBe(17);
    const withRules = pm("Bitcoin above ___ on December 31?", "Will the price of Bitcoin be above $90,000 on December 31?", "90,000", {
      description: "Resolves Yes if the Binance BTC/USDT 1 minute candle for 12:00 PM in the ET timezone (noon) on December 31, 2026 closes higher.",
    });
    expect(end(withRules)?.hour).toBe(12);
  });
});

describe("options, parties, places, negation and Kalshi's event + sub-title", () => {
  it("reads Kalshi's question from the event title, the sub-title and the rule sentence", () => {
    const f = extractFeatures(kx("Which party will win the governorship in Arizona?", "Democratic party", "a representative of the Democratic party is inaugurated as the governor of Arizona pursuant to the 2026 election"));
    expect(f.pick).toEqual(["democrat"]);
    expect(f.concepts.state).toEqual(["arizona"]);
    expect(f.concepts.office).toEqual(["governor"]);
    expect(new Date(f.time?.end ?? 0).toISOString().slice(0, 10)).toBe("2027-01-01");
  });

  it("canonicalizes party names and abbreviated team names", () => {
    expect(extractFeatures(pm("Senate", "Will the Democrats win?", "Democratic Party")).pick).toEqual(["democrat"]);
    expect(comparePicks(["los", "angeles", "dodgers"], ["los", "angeles", "d"])).toBe("abbrev");
    expect(comparePicks(["new", "york", "yankees"], ["new", "york", "m"])).toBe("different");
    expect(comparePicks(["boston", "celtics"], ["boston"])).toBe("abbrev");
  });

  it("reads negation", () => {
    expect(extractFeatures(pm("X", "Will Putin not leave office by December 31, 2026?")).negated).toBe(true);
    expect(extractFeatures(pm("X", "Will Putin leave office by December 31, 2026?")).negated).toBe(false);
    expect(extractFeatures(pm("Fed", "Will there be no change in Fed interest rates after the July 2026 meeting?", "No change")).negated).toBe(false);
  });
});

describe("pairs that differ in exactly one attribute", () => {
  const race = (state: string, party: string) =>
    kx(`Which party will win the governorship in ${state}?`, `${party} party`, `a representative of the ${party} party is inaugurated as the governor of ${state} pursuant to the 2026 election`);
  const pmRace = (state: string, party: string) => pm(`${state} Governor Election Winner`, `Will the ${party}s win the ${state} governor race in 2026?`, `${party} Party`);

  it("identity when everything agrees", () => {
    expect(relate(pmRace("Arizona", "Democrat"), race("Arizona", "Democratic"))).toBe("identity");
  });
  it("disjoint when only the party differs", () => {
    expect(relate(pmRace("Arizona", "Republican"), race("Arizona", "Democratic"))).toBe("disjoint");
  });
  it("never identity when only the state differs", () => {
    expect(relate(pmRace("Iowa", "Democrat"), race("Arizona", "Democratic"))).not.toBe("identity");
  });

  const ceasefire = (phrase: string) => pm("Russia x Ukraine ceasefire?", `Russia x Ukraine ceasefire ${phrase}?`);
  const kCeasefire = (date: string) => kx(`Russia-Ukraine ceasefire before ${date}?`, `Before ${date}`, `Russia and Ukraine both publicly agree to a general ceasefire before ${date}`);
  it("identity on the same deadline written two ways", () => {
    expect(relate(ceasefire("by September 30, 2026"), kCeasefire("Oct 1, 2026"))).toBe("identity");
  });
  it("subset / superset when only the deadline differs", () => {
    expect(relate(ceasefire("by September 30, 2026"), kCeasefire("Jan 1, 2027"))).toBe("subset");
    expect(relate(ceasefire("by June 30, 2027"), kCeasefire("Jan 1, 2027"))).toBe("superset");
  });

  const btc = (x: string) => pm("Bitcoin above ___ on December 31?", `Will the price of Bitcoin be above $${x} on December 31?`, x, { description: "Binance BTC/USDT candle for 12:00 PM ET on December 31, 2026." });
  const kBtc = (x: string, hour = "12pm") => kx(`Bitcoin price on Dec 31, 2026 at ${hour} EST?`, `$${x} or above`, `the BRTI is above ${x} at ${hour} EST on Dec 31, 2026`);
  it("identity across a one-cent strike difference, subset/superset on the threshold alone", () => {
    expect(relate(btc("100,000"), kBtc("100,000"))).toBe("identity");
    expect(relate(btc("120,000"), kBtc("100,000"))).toBe("subset");
    expect(relate(btc("90,000"), kBtc("100,000"))).toBe("superset");
  });
  it("overlap when only the hour differs", () => {
    expect(relate(btc("100,000"), kBtc("100,000", "5pm"))).toBe("overlap");
  });
  it("a reporting step matters for percentages: ≥ 3.0% is broader than > 3.0%", () => {
    const a = pm("US annual inflation in June 2026?", "Will US annual inflation be 3.0% or higher in June 2026?", "≥3.0%");
    const b = kx("Inflation in Jun 2026?", "Above 3.0%", "the CPI increases by more than 3.0% from June 2025 to June 2026");
    expect(relate(a, b)).toBe("superset");
  });
  it("disjoint for non-overlapping ranges of one quantity, overlap for another date", () => {
    const a = pm("Highest temperature in Miami on July 15?", "Will the highest temperature in Miami be 91-92°F on July 15?", "91-92°F", { resolutionDate: new Date("2026-07-16T12:00:00Z") });
    expect(relate(a, kx("Highest temperature in Miami on Jul 15, 2026?", "93° to 94°", "the highest temperature is 93 to 94°"))).toBe("disjoint");
    expect(relate(a, kx("Highest temperature in Miami on Jul 15, 2026?", "91° to 92°", "the highest temperature is 91 to 92°"))).toBe("identity");
    expect(relate(a, kx("Highest temperature in Miami on Jul 16, 2026?", "91° to 92°", "the highest temperature is 91 to 92°"))).toBe("overlap");
  });
  it("disjoint for another option of the same question", () => {
    const a = pm("Time 2026 Person of the Year", "Will Sam Altman be named TIME's 2026 Person of the Year?", "Sam Altman");
    const b = kx("TIME Person of the Year 2026?", "Javier Milei", "TIME names Javier Milei, individually, as its 2026 Person of the Year");
    expect(relate(a, b)).toBe("disjoint");
  });
  it("an option named on one side and phrased in the other's question", () => {
    const single = pm("Will Trump be TIME's 2026 Person of the Year?", "Will Trump be TIME's 2026 Person of the Year?");
    const trump = kx("TIME Person of the Year 2026?", "Donald Trump", "TIME names Donald Trump, individually, as its 2026 Person of the Year");
    const milei = kx("TIME Person of the Year 2026?", "Javier Milei", "TIME names Javier Milei, individually, as its 2026 Person of the Year");
    expect(relate(single, trump)).toBe("identity");
    expect(relate(single, milei)).toBeUndefined();
  });
  it("nothing for unrelated questions", () => {
    expect(relate(pm("Beyonce", "Will Beyoncé announce a 2027 world tour by December 31, 2026?"), kCeasefire("Jan 1, 2027"))).toBeUndefined();
  });
});
