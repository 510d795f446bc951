import { describe, expect, it } from "vitest";
import { unmatchedNames, wonFinal } from "./names";
import { classifyPair } from "../classify";
import { kx, pm } from "@/test/helpers/matching-markets";
import { compareWording, plainWording } from "./words";

describe("names and words comparators", () => {
  it("a name one side states and the other lacks is listed, from each side", () => {
    const a = pm("Quillon Pact", "Will Zorbia join the Quillon Pact in 2030?");
    const b = kx("Quillon Pact members in 2030?", "Will Xandor join the Quillon Pact in 2030?", "Xandor joins the Quillon Pact in 2030");
    const w = plainWording(a, b);
    expect(w.names.a).toContain("zorbia");
    expect(w.names.b).toContain("xandor");
    expect(w.paraphrased).toEqual({ a: [], b: [] });
  });

  it("a given name left out is the same person; an excused word is not a name", () => {
    const a = pm("Varga visit", "Will Varga visit Lisbon by June 30, 2030?");
    const b = kx("Who will visit Lisbon?", "Will Odile Varga visit Lisbon before Jul 1, 2030?", "Odile Varga visits Lisbon before Jul 1, 2030");
    expect(unmatchedNames(b, a)).toEqual([]);
    const c = pm("Zorbia", "Will Zorbia visit Lisbon by June 30, 2030?");
    expect(unmatchedNames(c, b)).toContain("zorbia");
    expect(unmatchedNames(c, b, new Set(["zorbia"]))).not.toContain("zorbia");
  });

  it("words said in other words are paraphrases and account for the other side's words", () => {
    const visit = pm("Quill abroad", "Will Ada Quill visit Zorbia before 2031?");
    const travel = kx("Quill abroad", "Will Ada Quill travel to Zorbia before 2031?", "Ada Quill travels to Zorbia before Jan 1, 2031");
    const w = compareWording(visit, travel, new Set(), []);
    expect(w.paraphrased.a).toEqual([{ word: "visit", as: "travel to" }]);
    expect(w.words).toEqual({ a: [], b: [] });
  });

  it("winning a competition's final is winning the competition; a prize of the final, or reaching it, is not", () => {
    // Invented competition and teams.
    const conference = pm("Northern Conference Winner", "Will the Springfield Owls win the Northern Conference?");
    const finals = kx("Northern Conference Finals", "Will the Springfield Owls win the Northern Conference Finals?", "the Springfield basketball team wins the Northern Conference Finals");
    expect(wonFinal(conference, finals)).toEqual(["finals"]);
    expect(classifyPair(conference, finals, () => 1)?.relation).toBe("identity");
    // "Finals MVP" is another award: the stage word does not end the name.
    const mvp = kx("Northern Finals MVP", "Will Owen Tarr win the Northern Finals MVP?", "Owen Tarr wins the Northern Finals MVP");
    const seasonMvp = pm("Northern MVP", "Will Owen Tarr win the Northern MVP?");
    expect(wonFinal(seasonMvp, mvp)).toEqual([]);
    expect(classifyPair(seasonMvp, mvp, () => 1)?.relation).not.toBe("identity");
    // Reaching the final is not winning it.
    const reach = kx("Northern Conference Finals", "Will the Springfield Owls reach the Northern Conference Finals?", "the Springfield basketball team reaches the Northern Conference Finals");
    expect(wonFinal(conference, reach)).toEqual([]);
    expect(classifyPair(conference, reach, () => 1)?.relation).not.toBe("identity");
  });
});
