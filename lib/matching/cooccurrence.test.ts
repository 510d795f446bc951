import { describe, expect, it } from "vitest";
import { CandidateIndex } from "./candidates";
import { namesImplied } from "./compare/names";
import { extractFeatures as extract, type MatchInput } from "./extract";

/** Invented catalogs: each market's keys as the candidate index holds them. */
const market = (id: string, venue: string, keys: string[]) => ({ id, venue, keys });

describe("co-occurrence (names that travel together)", () => {
  it("learns, per venue, a name one venue always writes with another", () => {
    // The first venue writes the ceremony's name with every award; the second never does.
    const index = new CandidateIndex([
      market("a1", "first", ["glimmer", "award", "song", "year"]),
      market("a2", "first", ["glimmer", "award", "album", "year"]),
      market("a3", "first", ["glimmer", "award", "album", "artist"]),
      market("a4", "first", ["album", "glimmer", "debut"]),
      market("b1", "second", ["album", "year", "win"]),
      market("b2", "second", ["album", "artist", "win"]),
      market("b3", "second", ["album", "debut", "win"]),
    ]);
    // On the first venue every market with "album" says "glimmer"; pooled over both it is 3 of 6.
    expect(index.travelsWith("album", "glimmer")).toBe(1);
    // The other way round it does not hold: most "glimmer" markets name no album on the second venue... nor on the first.
    expect(index.travelsWith("glimmer", "album")).toBeLessThan(0.9);
    // Too few markets carry a word to learn from it.
    expect(index.travelsWith("song", "glimmer")).toBe(0);
  });

  it("is learned again when the catalog changes", () => {
    const index = new CandidateIndex([
      market("a1", "first", ["cup", "fedra"]),
      market("a2", "first", ["cup", "fedra"]),
      market("a3", "first", ["cup", "fedra"]),
    ]);
    expect(index.travelsWith("cup", "fedra")).toBe(1);
    index.upsert([market("a4", "first", ["cup", "harbour"]), market("a5", "first", ["cup", "harbour"]), market("a3", "first", ["cup", "harbour"])]);
    // Two of five live markets with "cup" still say "fedra" (a3's old version no longer counts).
    expect(index.travelsWith("cup", "fedra")).toBeCloseTo(2 / 5);
  });

  it("tells two alternatives (never on one market) from names that meet", () => {
    const index = new CandidateIndex([
      market("a1", "first", ["league", "vantor", "cup"]),
      market("a2", "first", ["league", "vantor"]),
      market("a3", "first", ["league", "vantor"]),
      market("a4", "first", ["league", "meridia"]),
      market("a5", "first", ["league", "meridia"]),
      market("a6", "first", ["league", "meridia", "cup"]),
    ]);
    expect(index.apart("vantor", "meridia")).toBe(true);
    expect(index.apart("vantor", "cup")).toBe(false);
    // Too rare to say: "cup" is on two markets only.
    expect(index.apart("cup", "unseen")).toBe(false);
  });
});

const input = (id: string, venue: string, title: string, eventTitle: string): MatchInput => ({
  id,
  venue,
  eventId: `${venue}-${id}`,
  category: "Sports",
  title,
  eventTitle,
  yesLabel: null,
  description: null,
  resolutionDate: new Date("2031-06-30T00:00:00Z"),
});

describe("names implied across the catalog", () => {
  // An invented catalog: the first venue lists only the "Vantor Cup" and always names its organiser
  // "Fedra"; the second lists the Vantor Cup and the "Meridia Cup", another competition, without it.
  const teams = ["Lowland", "Eastmark", "Norcastle", "Westdale"];
  const first = teams.map((team, i) => input(`f${i}`, "first", `Will ${team} win the Fedra Vantor Cup?`, "Fedra Vantor Cup winner"));
  const second = teams.flatMap((team, i) => [
    input(`s${i}`, "second", `Will ${team} win the Vantor Cup?`, "Vantor Cup"),
    input(`t${i}`, "second", `Will ${team} win the Meridia Cup?`, "Meridia Cup"),
  ]);
  const features = new Map([...first, ...second].map((m) => [m.id, extract(m)]));
  const index = new CandidateIndex([...features.values()].map((f) => ({ id: f.id, venue: f.venue, keys: f.keys })));
  const get = (id: string) => features.get(id) ?? extract(input(id, "x", "", ""));

  it("a name the other side's words imply is not unsaid", () => {
    // "Fedra" travels with "Vantor" on the first venue: the second venue's "Vantor Cup" implies it.
    expect(namesImplied(["fedra"], "first", get("s0"), index, [])).toEqual(["fedra"]);
  });

  it("a name that narrows to another competition stays a difference", () => {
    // On the first venue every "Cup" is the Vantor Cup, so "cup" alone travels with "vantor" ...
    expect(index.travelsWith("cup", "vantor")).toBe(1);
    expect(index.apart("vantor", "meridia")).toBe(true);
    // ... but the other side says "Meridia", which the catalog never puts on a market with "Vantor"
    // (nor with "Fedra"): alternatives, so nothing is implied and the pair keeps its difference
    //.
    expect(namesImplied(["fedra", "vantor"], "first", get("t0"), index, ["meridia"])).toEqual([]);
    // A stage word is never implied, however often it travels.
    expect(namesImplied(["final"], "first", get("s0"), index, [])).toEqual([]);
  });

  it("a word the two venues use for different things implies nothing", () => {
    const teams = ["lowland", "eastmark", "norcastle", "westdale"];
    const other = (keys: string[]) => ({ ...get("s0"), venue: "second", keys });
    // The first venue always writes "fedra" with "cup"; on the second every "cup" goes with "harbour",
    // a name the first venue never writes: "cup" names another contest there, and implies nothing.
    const apartUse = new CandidateIndex([
      ...teams.map((t, i) => market(`f${i}`, "first", ["cup", "fedra", t])),
      ...teams.map((t, i) => market(`s${i}`, "second", ["cup", "harbour", t])),
    ]);
    expect(apartUse.travelsOn("first", "cup", "fedra")).toBe(1);
    expect(namesImplied(["fedra"], "first", other(["cup", "harbour", "lowland"]), apartUse, [])).toEqual([]);
    // Where the second venue's "cup" carries no name of its own, the first venue's convention is read.
    const alike = new CandidateIndex([...teams.map((t, i) => market(`f${i}`, "first", ["cup", "fedra", t])), ...teams.map((t, i) => market(`s${i}`, "second", ["cup", t]))]);
    expect(namesImplied(["fedra"], "first", other(["cup", "lowland"]), alike, [])).toEqual(["fedra"]);
  });

  it("without the catalog nothing is implied", () => {
    expect(namesImplied(["fedra"], "first", get("s0"), undefined)).toEqual([]);
  });
});
