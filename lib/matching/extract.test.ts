import { describe, expect, it } from "vitest";
import { classifyPair, comparePicks, type Relation } from "./classify";
import { canonicalTokens, extractFeatures, parseInterval, type MatchInput } from "./extract";
import { kxInput as kx, pmInput as pm } from "@/test/helpers/matching-markets";

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
    expect(parseInterval("Will the Greens hold the upper chamber?")).toBeNull();
    expect(parseInterval("Odile Varga")).toBeNull();
  });
});

describe("dates and deadlines (chrono-node)", () => {
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
    ["by the end of April 2026", { kind: "instant", end: "2026-05-01" }],
    ["in Q2 2026", { kind: "window", end: "2026-07-01" }],
    ["by the third quarter of 2026", { kind: "window", end: "2026-10-01" }],
  ])("%s", (phrase, expected) => {
    expect(end(pm("Event", `Will the canal reopen ${phrase}?`))).toMatchObject(expected);
  });

  it("takes a missing year from the resolution date", () => {
    const t = extractFeatures(pm("Rain", "Will it rain in Lisbon on July 15?", null, { resolutionDate: new Date("2026-07-16T12:00:00Z") })).time;
    expect(new Date(t?.start ?? 0).toISOString().slice(0, 10)).toBe("2026-07-15");
  });

  it("reads a year followed by the verb 'be' as that year (chrono reads \"2031 BE\" as a Buddhist-era year)", () => {
    expect(end(kx("Wettest month?", "Will  Mar 2031 be the wettest Mar ever?", "March 2031 is the wettest March on record"))).toMatchObject({ kind: "window", end: "2031-04-01" });
  });

  it("reads the hour of an instant from the title or the rules", () => {
    expect(end(kx("Solana price on Mar 3, 2027 at 5pm EST?", "$300 or above", "the index is above 299.99 at 5 PM EST"))?.hour).toBe(17);
    const withRules = pm("Solana above ___ on March 3?", "Will the price of Solana be above $300 on March 3?", "300", {
      description: "Resolves Yes if the one-minute candle for 12:00 PM in the ET timezone (noon) on March 3, 2027 closes higher.",
      resolutionDate: new Date("2027-03-03T17:00:00Z"),
    });
    expect(end(withRules)?.hour).toBe(12);
  });
});

describe("questions, options, places and names", () => {
  it("reads Kalshi's question from the event title, the sub-title and the rule sentence", () => {
    const f = extractFeatures(kx("Which party will win the governorship in Vermont?", "Democratic party", "a representative of the Democratic party is inaugurated as the governor of Vermont pursuant to the 2030 election"));
    expect(f.pick).toEqual(["democrat"]);
    expect(f.concepts.state).toEqual(["state:vt"]);
    expect(f.concepts.office).toEqual(["governor"]);
    expect(new Date(f.time?.end ?? 0).toISOString().slice(0, 10)).toBe("2031-01-01");
  });

  it("reads a Yes label that is a whole question as the outcome's question, not the shared event title", () => {
    const f = extractFeatures(kx("2030 Ruritanian presidential nominee", "Will Odile Varga be the Ruritanian presidential nominee in 2030?", "Odile Varga is the nominee"));
    expect(f.pick).toBeNull();
    expect(f.question).toContain("Odile Varga");
    expect(f.names.map((n) => n.words.join(" "))).toContain("odile varga");
  });

  it("reads places from the packaged gazetteers: one country, however it is written", () => {
    const ids = (q: string) => extractFeatures(pm("Trade", q)).concepts.country;
    expect(ids("Will the United States sign a trade pact with Peru in 2030?")).toEqual(["country:us", "country:pe"]);
    expect(ids("Will the USA sign a trade pact with Peru in 2030?")).toEqual(["country:us", "country:pe"]);
    // Country codes that are English words are not countries ("AND", "CAN").
    expect(ids("Can Peru and Chile agree in 2030?")).toEqual(["country:pe", "country:cl"]);
  });

  it("canonicalizes party names and abbreviated team names", () => {
    expect(extractFeatures(pm("Chamber", "Will the Democrats win?", "Democratic Party")).pick).toEqual(["democrat"]);
    expect(comparePicks(["springfield", "owls"], ["springfield", "o"])).toBe("abbrev");
    expect(comparePicks(["springfield", "owls"], ["springfield", "h"])).toBe("different");
    expect(comparePicks(["shelbyville", "hawks"], ["shelbyville"])).toBe("abbrev");
  });

  it("reads negation", () => {
    expect(extractFeatures(pm("X", "Will the chancellor not leave office by December 31, 2030?")).negated).toBe(true);
    expect(extractFeatures(pm("X", "Will the chancellor leave office by December 31, 2030?")).negated).toBe(false);
    expect(extractFeatures(pm("Fed", "Will there be no change in Fed interest rates after the March 2030 meeting?", "No change")).negated).toBe(false);
  });
});

describe("pairs that differ in exactly one attribute", () => {
  const race = (state: string, party: string) =>
    kx(`Which party will win the governorship in ${state}?`, `${party} party`, `a representative of the ${party} party is inaugurated as the governor of ${state} pursuant to the 2030 election`);
  const pmRace = (state: string, party: string) => pm(`${state} Governor Election Winner`, `Will the ${party}s win the ${state} governor race in 2030?`, `${party} Party`);

  it("identity when everything agrees", () => {
    expect(relate(pmRace("Vermont", "Democrat"), race("Vermont", "Democratic"))).toBe("identity");
  });
  it("disjoint when only the party differs", () => {
    expect(relate(pmRace("Vermont", "Republican"), race("Vermont", "Democratic"))).toBe("disjoint");
  });
  it("never identity when only the state differs", () => {
    expect(relate(pmRace("Nevada", "Democrat"), race("Vermont", "Democratic"))).not.toBe("identity");
  });

  const pact = (phrase: string) => pm("Arden x Belmar peace pact?", `Arden x Belmar peace pact ${phrase}?`);
  const kPact = (date: string) => kx(`Arden-Belmar peace pact before ${date}?`, `Before ${date}`, `Arden and Belmar both publicly sign a peace pact before ${date}`);
  it("identity on the same deadline written two ways", () => {
    expect(relate(pact("by September 30, 2030"), kPact("Oct 1, 2030"))).toBe("identity");
  });
  it("subset / superset when only the deadline differs", () => {
    expect(relate(pact("by September 30, 2030"), kPact("Jan 1, 2031"))).toBe("subset");
    expect(relate(pact("by June 30, 2031"), kPact("Jan 1, 2031"))).toBe("superset");
  });

  const sol = (x: string) =>
    pm("Solana above ___ on March 3?", `Will the price of Solana be above $${x} on March 3?`, x, {
      description: "The one-minute candle for 12:00 PM ET on March 3, 2030.",
      resolutionDate: new Date("2030-03-03T17:00:00Z"),
    });
  const kSol = (x: string, hour = "12pm") => kx(`Solana price on Mar 3, 2030 at ${hour} EST?`, `$${x} or above`, `the index is above ${x} at ${hour} EST on Mar 3, 2030`, { resolutionDate: new Date("2030-03-03T17:00:00Z") });
  it("identity across a one-cent strike difference, subset/superset on the threshold alone", () => {
    expect(relate(sol("300"), kSol("300"))).toBe("identity");
    expect(relate(sol("350"), kSol("300"))).toBe("subset");
    expect(relate(sol("250"), kSol("300"))).toBe("superset");
  });
  it("overlap when only the hour differs", () => {
    expect(relate(sol("300"), kSol("300", "5pm"))).toBe("overlap");
  });
  it("a reporting step matters for percentages: ≥ 3.0% is broader than > 3.0%", () => {
    const a = pm("Annual inflation in March 2030?", "Will annual inflation be 3.0% or higher in March 2030?", "≥3.0%");
    const b = kx("Inflation in Mar 2030?", "Above 3.0%", "the CPI increases by more than 3.0% from March 2029 to March 2030");
    expect(relate(a, b)).toBe("superset");
  });
  it("a complement is disjoint: one is the other's No", () => {
    const a = pm("Jobless rate in March 2030?", "Will the unemployment rate be 5.1% or below in March 2030?", "≤5.1%");
    const b = kx("Unemployment rate in Mar 2030?", "Above 5.1%", "the unemployment rate is above 5.1% for March 2030");
    const result = classifyPair(extractFeatures(a), extractFeatures(b), idf);
    expect(result?.relation).toBe("disjoint");
    expect(result?.reasoning).toContain("one is the other's No");
  });
  it("disjoint for non-overlapping ranges of one quantity, overlap for another date", () => {
    const a = pm("Highest temperature in Lisbon on July 15?", "Will the highest temperature in Lisbon be 31-32°C on July 15?", "31-32°C", { resolutionDate: new Date("2030-07-16T12:00:00Z") });
    const k = (day: number, range: string, words: string) => kx(`Highest temperature in Lisbon on Jul ${day}, 2030?`, range, `the highest temperature is ${words}`, { resolutionDate: new Date("2030-07-17T12:00:00Z") });
    expect(relate(a, k(15, "33° to 34°", "33 to 34°"))).toBe("disjoint");
    expect(relate(a, k(15, "31° to 32°", "31 to 32°"))).toBe("identity");
    expect(relate(a, k(16, "31° to 32°", "31 to 32°"))).toBe("overlap");
  });
  it("disjoint for another option of the same question", () => {
    const a = pm("Gazette 2030 Citizen of the Year", "Will Odile Varga be named the Gazette's 2030 Citizen of the Year?", "Odile Varga");
    const b = kx("Gazette Citizen of the Year 2030?", "Bram Okafor", "the Gazette names Bram Okafor, individually, as its 2030 Citizen of the Year");
    expect(relate(a, b)).toBe("disjoint");
  });
  it("nothing for unrelated questions", () => {
    expect(relate(pm("Tour", "Will Odile Varga announce a 2031 world tour by December 31, 2030?"), kPact("Jan 1, 2031"))).toBeUndefined();
  });
});

describe("identity fails closed", () => {
  const nominee = (name: string) => pm("Ruritanian Presidential Nominee 2030", `Will ${name} win the 2030 Ruritanian presidential nomination?`);
  const kNominee = (name: string) =>
    kx("2030 Ruritanian presidential nominee", `Will ${name} be the Ruritanian presidential nominee in 2030?`, `${name} is the Ruritanian presidential nominee in 2030`);
  const said = (a: MatchInput, b: MatchInput) => classifyPair(extractFeatures(a), extractFeatures(b), idf);

  it("the outcome, not the event shared by every outcome, is the question", () => {
    expect(said(nominee("Odile Varga"), kNominee("Odile Varga"))?.relation).toBe("identity");
    const other = said(nominee("Odile Varga"), kNominee("Bram Okafor"));
    expect(other?.relation).not.toBe("identity");
  });

  it("a name the engine has never seen is a difference, and the reasoning names it", () => {
    const r = said(pm("Zorbia", "Will Zorbia join the Quillon Pact in 2030?"), kx("Quillon Pact members in 2030?", "Will Xandor join the Quillon Pact in 2030?", "Xandor joins the Quillon Pact in 2030"));
    expect(r?.relation ?? "none").not.toBe("identity");
    if (r !== null) expect(r.reasoning).toMatch(/zorbia|xandor/);
  });

  it("a city one side states and the other leaves unsaid is weighed once, as a place on one side, not also as an unsaid name", () => {
    const r = said(pm("2030 Zorbian Cup Winner", "Will Lisbon Rovers win the 2030 Zorbian Cup?"), kx("2030 Zorbian Cup winner?", "Will Rovers win the 2030 Zorbian Cup?", "Rovers win the 2030 Zorbian Cup"));
    expect(r?.evidence).toMatchObject({ contextOneSide: 1, unmatchedNames: 0 });
  });

  it("a given name left out is the same person; another given name for the surname is another person", () => {
    const a = pm("Varga visit", "Will Varga visit Lisbon by June 30, 2030?");
    const b = kx("Who will visit Lisbon?", "Will Odile Varga visit Lisbon before Jul 1, 2030?", "Odile Varga visits Lisbon before Jul 1, 2030");
    expect(said(a, b)?.relation).toBe("identity");
    const c = pm("Varga visit", "Will Henrik Varga visit Lisbon by June 30, 2030?");
    expect(said(c, b)?.relation).not.toBe("identity");
  });

  it("another ordinal position or wording is not the same question", () => {
    const first = kx("Arden mayoral election", "Will Odile Varga win the first round of the 2030 Arden mayoral election?", "Odile Varga wins the first round");
    const second = pm("Arden mayoral election", "Will Odile Varga advance to the second round of the 2030 Arden mayoral election?");
    const r = said(second, first);
    expect(r?.relation).toBe("overlap");
    expect(r?.reasoning).toMatch(/positions differ/);
  });

  it("a date on one side only is a difference", () => {
    const dated = pm("Springfield title", "Will the Springfield Owls win the 2030 Northern Cup?");
    const undated = kx("Northern Cup", "Will the Springfield Owls win the Northern Cup?", "the Springfield Owls win the Northern Cup");
    expect(said(dated, undated)?.relation).not.toBe("identity");
  });

  it("a date one question leaves out is read from the Yes paragraph of its rules", () => {
    const dated = pm("Xandor recognition", "Will Zorbia recognise Xandor before 2031?");
    const rules = (deadline: string) =>
      kx("Xandor recognition", "Will Zorbia recognise Xandor?", "", {
        description: `If Zorbia formally recognises Xandor as a sovereign state after Issuance and before ${deadline}, the market resolves to Yes.\nOpening an embassy counts.`,
      });
    const same = said(dated, rules("Jan 1, 2031"));
    expect(same?.relation).toBe("identity");
    expect(same?.reasoning).toMatch(/kalshi's rules state before 2031-01-01/i);
    expect(said(dated, rules("Jan 1, 2032"))?.relation).not.toBe("identity");
  });

  it("a team's nickname is matched by its city only when one team of the lexicon has that city", () => {
    const cup = (team: string) => pm("Northern Cup 2030", `Will the ${team} win the 2030 Northern Cup?`);
    const city = (name: string) => kx("2030 Northern Cup winner", `Will ${name} win the 2030 Northern Cup?`, `${name} wins the 2030 Northern Cup`);
    expect(said(cup("Utah Jazz"), city("Utah"))?.relation).toBe("identity");
    expect(said(cup("Los Angeles Lakers"), city("Los Angeles"))?.relation).not.toBe("identity");
  });

  it("the same act in other words is weighed as a paraphrase, not a difference", () => {
    const visit = pm("Quill abroad", "Will Ada Quill visit Zorbia before 2031?");
    const travel = kx("Quill abroad", "Will Ada Quill travel to Zorbia before 2031?", "Ada Quill travels to Zorbia before Jan 1, 2031");
    const r = said(visit, travel);
    expect(r?.evidence.paraphrased).toBeGreaterThan(0);
    expect(r?.evidence.unmatchedWords).toBe(0);
    expect(r?.reasoning).toMatch(/in other words: polymarket visit = kalshi travel to/);
    expect(r?.relation).toBe("identity");
    // Another act is still another question.
    const leave = kx("Quill abroad", "Will Ada Quill leave Zorbia before 2031?", "Ada Quill leaves Zorbia before Jan 1, 2031");
    expect(said(visit, leave)?.relation).not.toBe("identity");
  });

  it("a date one question leaves out is filled from its own resolution date when that falls inside the other's window", () => {
    const dated = pm("Widget Awards", "Will Ada Quill win Best Widget at the 2031 Widget Awards?");
    const undated = (resolves: string) =>
      kx("Widget Awards", "Will Ada Quill win Best Widget at the Widget Awards?", "Ada Quill wins Best Widget at the Widget Awards", { resolutionDate: new Date(resolves) });
    const same = said(dated, undated("2031-03-02T12:00:00Z"));
    expect(same?.evidence.dateFromResolution).toBe(1);
    expect(same?.evidence.dateOneSide).toBe(0);
    expect(same?.reasoning).toMatch(/kalshi resolves 2031-03-02, inside the other.s/i);
    // Resolving before the other's year opens: another ceremony, never the same question.
    const earlier = said(dated, undated("2029-03-02T12:00:00Z"));
    expect(earlier?.relation).toBe("overlap");
    expect(earlier?.reasoning).toMatch(/different time/);
  });

  it("rules that count an announcement against rules that need the act: at most overlap, both wordings kept", () => {
    const question = "Will Ada Quill leave office before 2031?";
    const news = pm("Quill out", question, null, {
      description: "This market will resolve to Yes if Ada Quill leaves office by December 31, 2030.\nAn announcement of her resignation will resolve this market to Yes.",
    });
    const act = kx("Quill out", question, "Ada Quill leaves office before Jan 1, 2031");
    const r = said(news, act);
    expect(r?.relation).toBe("overlap");
    expect(r?.identityCandidate).toBe(false);
    expect(r?.ruleDifferences.map((d) => d.term)).toEqual(["trigger"]);
    expect(r?.ruleDifferences[0]?.a).toMatch(/announcement of her resignation/);
    expect(r?.reasoning).toMatch(/rules differ \(what counts: polymarket/);
    // Without the announcement clause, the same question.
    const plain = pm("Quill out", question, null, { description: "This market will resolve to Yes if Ada Quill leaves office by December 31, 2030." });
    expect(said(plain, act)?.relation).toBe("identity");
  });

  it("confidence is the fitted probability, not a fixed score", () => {
    const r = said(nominee("Odile Varga"), kNominee("Odile Varga"));
    expect(r?.confidence).toBeGreaterThan(0);
    expect(r?.confidence).toBeLessThan(1);
    expect(r?.evidence.unmatchedNames).toBe(0);
  });
});

describe("canonical words", () => {
  it("rewrites a policy move only as a move: the lower house stays lower", () => {
    expect(canonicalTokens("Will the central bank lower rates in June?")).toContain("cut");
    expect(canonicalTokens("Who will control the Lower house?")).toContain("lower");
    expect(canonicalTokens("Who will control the Lower house?")).not.toContain("cut");
  });
});

describe("numbers joined to words are names, not thresholds", () => {
  it("a number joined to letters stays one word of the question", () => {
    expect(extractFeatures(pm("Cup", "Will the Springfield 49ers win the 2030 Northern Cup?")).outcome).not.toContain("ers");
  });


  it.each([
    ["Will the jobless rate (U-6) be above 7.5% in May?", { unit: "pct", lo: 7.5 }],
    ["Will COVID-19 admissions exceed 40% in May?", { unit: "pct", lo: 40 }],
  ])("%s", (text, expected) => {
    expect(parseInterval(text)).toMatchObject(expected);
  });
});

describe("names and ranks are not thresholds", () => {
  it("reads a number after a capitalised word as part of a name, a rank as a position", () => {
    expect(parseInterval("Will the Zephyr 500 index close above 7,000 in May?")).toMatchObject({ unit: "count", lo: 7000, loStrict: true });
    expect(parseInterval("Will the album debut at #1 on the Top 40?")).toBeNull();
    expect(extractFeatures(pm("Chart", "Will the album debut at #1 on the Top 40?")).ordinals).toEqual([1]);
  });

  it("a function word opening the question names nothing: the number after it is a quantity", () => {
    expect(parseInterval("Will 4-6 Aldren rockets reach orbit in 2031?")).toMatchObject({ unit: "count", lo: 4, hi: 6 });
    expect(parseInterval("Will 12 or more storms make landfall in 2031?")).toMatchObject({ unit: "count", lo: 12, hi: null });
    expect(parseInterval("Zephyr 500 above 7,000?")).toMatchObject({ unit: "count", lo: 7000, loStrict: true });
  });

  it("a hyphenated name stands for its parts", () => {
    const a = pm("Model release", "Will Quillon release Q-9 by June 30, 2030?");
    const b = kx("Q-9 released before Jul 1, 2030?", "Before Jul 1, 2030", "Quillon releases Q-9 before Jul 1, 2030");
    // The name is read as its parts: nothing at all differs between the two.
    const result = classifyPair(extractFeatures(a), extractFeatures(b), idf);
    expect(result?.differences).toEqual([]);
    expect(result?.relation).toBe("identity");
  });
});

describe("title-case headings", () => {
  it("a generic word capitalised in a heading is not a name one side lacks", () => {
    const a = pm("Who will win the 2030 Arden Open men's singles?", "Will Odile Varga win the 2030 Arden Open men's singles?", "Odile Varga");
    const b = kx("2030 Arden Open Men's Singles Winner?", "Odile Varga", "Odile Varga wins the 2030 Arden Open Men's Singles");
    expect(relate(a, b)).toBe("identity");
  });
});

describe("amounts are not times", () => {
  it("reads $3.00 before a date as a threshold, not as 3 o'clock", () => {
    const f = extractFeatures(pm("Token above ___ on January 5?", "Will the price of Solana be above $3.00 on January 5?", "3.00", { resolutionDate: new Date("2031-01-06T12:00:00Z") }));
    expect(f.interval).toMatchObject({ unit: "usd", lo: 3, loStrict: true, hi: null });
    expect(f.time).toMatchObject({ kind: "instant", hour: null });
  });
});

describe("rule terms on a pair answered on another conflict", () => {
  it("names the rules' differences beside the conflict that settled the pair", () => {
    const a = pm("Zorbian widget index on June 30", "Will the Zorbian widget index close above 120 on June 30, 2030?", null, {
      description: "This market will resolve to Yes if the Zorbian widget index closes above 120 at 4 PM ET on June 30, 2030.",
    });
    const b = kx("Zorbian widget index on Jul 31, 2030?", "Above 120", "the Zorbian widget index closes above 120 at 4 PM UTC on Jul 31, 2030");
    const result = classifyPair(extractFeatures(a), extractFeatures(b), idf);
    expect(result?.relation).toBe("overlap");
    expect(result?.differences.map((d) => d.attribute)).toEqual(["time", "rules"]);
    expect(result?.ruleDifferences).toEqual([{ term: "deadlineZone", a: expect.stringMatching(/4 PM ET/), b: expect.stringMatching(/4 PM UTC/) }]);
    expect(result?.evidence.ruleDifferences).toBe(1);
    expect(result?.reasoning).toMatch(/rules differ \(deadline time zone/);
  });
});

describe("a leaderboard one side's rules read the outcome from", () => {
  const board = "This market will resolve to Yes if any model owned by Zorbix has the highest score on the Quillon Arena Leaderboard (https://quillon.example/) on December 31, 2030, 12:00 PM ET. Otherwise, No.";
  const a = () => pm("Top model on December 31?", "Will Zorbix have the top model on December 31, 2030?", "Zorbix", { description: board });

  it("is unknown on a side whose rules name no leaderboard: not the same question", () => {
    const r = classifyPair(extractFeatures(a()), extractFeatures(kx("Top model at year end?", "Zorbix", "Zorbix has the top model on Dec 31, 2030")), idf);
    expect(r?.relation ?? "none").not.toBe("identity");
    expect(r?.reasoning ?? "").toMatch(/the leaderboard read: polymarket "a leaderboard", kalshi states none/);
  });

  it("is no difference when both rules read a leaderboard", () => {
    const b = kx("Top model at year end?", "Zorbix", "Zorbix has the top model on the Quillon Arena Leaderboard on Dec 31, 2030");
    const r = classifyPair(extractFeatures(a()), extractFeatures(b), idf);
    expect(r?.reasoning ?? "").not.toMatch(/the leaderboard read/);
    expect(r?.relation).toBe("identity");
  });
});

describe("what the act is about differs", () => {
  const a = () => pm("Flumo banned in 2030?", "Flumo banned in 2030?", null, { description: "This market will resolve to Yes if the Flumo app is banned in the United States by December 31, 2030. Otherwise, No." });

  it("is another question when each side's word beside the shared act is unsaid on the other", () => {
    const b = kx("Quiddle banned in the United States in 2030", "Quiddle banned in the United States in 2030", "If Quiddle pouches have been banned by the U.S. federal government by Dec 31, 2030, then the market resolves to Yes.");
    const r = classifyPair(extractFeatures(a()), extractFeatures(b), idf);
    expect(r?.relation ?? "none").not.toBe("identity");
    expect(r?.reasoning ?? "").toMatch(/what "banned" is about differs: polymarket flumo vs kalshi quiddle/);
  });

  it("is no difference when both name the same thing", () => {
    const b = kx("Flumo banned in the United States in 2030", "Flumo banned in the United States in 2030", "If the Flumo app has been banned by the U.S. federal government by Dec 31, 2030, then the market resolves to Yes.");
    const r = classifyPair(extractFeatures(a()), extractFeatures(b), idf);
    expect(r?.reasoning ?? "").not.toMatch(/is about differs/);
  });
});
