import { describe, expect, it } from "vitest";
import { aliasedWords, entitiesIn, entitiesOf } from "./aliases";
import { CandidateIndex } from "./candidates";
import { extractFeatures } from "./extract";

describe("entity aliases (world-countries, compromise's sports teams)", () => {
  it("reads a country's names and demonyms as one country", () => {
    expect(entitiesOf("norway")).toContain("country:no");
    expect(entitiesOf("norwegian")).toContain("country:no");
    expect([...aliasedWords(["norwegian"], entitiesIn(["the", "capital", "of", "norway"]))]).toEqual(["norwegian"]);
    expect(aliasedWords(["finnish"], entitiesIn(["the", "capital", "of", "norway"])).size).toBe(0);
  });

  it("reads a team's nickname and its city as one team, and a shared nickname as none", () => {
    const team = [...entitiesOf("green bay packers")];
    expect(team.length).toBe(1);
    expect(entitiesOf("packers")).toEqual(team);
    expect(entitiesOf("green bay")).toEqual(expect.arrayContaining(team));
    // A city of several words on one side, the nickname on the other.
    expect([...aliasedWords(["green", "bay"], entitiesIn(["packers", "at", "seattle"]))].sort()).toEqual(["bay", "green"]);
    expect(aliasedWords(["packers"], entitiesIn(["seattle", "at", "green"])).size).toBe(0);
    // A city with several teams names each for the index, none for the comparison.
    expect(entitiesIn(["pittsburgh"]).size).toBeGreaterThan(1);
    expect(entitiesIn(["pittsburgh"], { unambiguous: true }).size).toBe(0);
    expect(aliasedWords(["steelers"], entitiesIn(["pittsburgh"], { unambiguous: true })).size).toBe(0);
  });
});

describe("entity keys of a market", () => {
  const read = (title: string) =>
    extractFeatures({ id: title, venue: "v", eventId: "e", category: "sports", title, eventTitle: title, yesLabel: null, description: null, resolutionDate: new Date("2031-01-01") });

  it("gives a game named by nicknames and the same game named by cities a shared key, so the index nominates one for the other", () => {
    const byNickname = read("Packers vs. Seahawks");
    const byCity = read("Green Bay at Seattle");
    const shared = byNickname.keys.filter((k) => k.startsWith("e:") && byCity.keys.includes(k));
    expect(shared).toEqual(expect.arrayContaining(entitiesOf("green bay packers").map((id) => `e:${id}`)));
    const index = new CandidateIndex([
      { id: "a", venue: "one", keys: byNickname.keys },
      { id: "b", venue: "two", keys: byCity.keys },
      { id: "c", venue: "two", keys: read("Will the Zorbian central bank cut rates?").keys },
    ]);
    expect(index.candidates({ id: "a", venue: "one", keys: byNickname.keys })).toEqual(["b"]);
  });
});
