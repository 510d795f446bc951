import { describe, expect, it } from "vitest";
import { compareForm } from "./form";
import { compareRules } from "./rules";
import { kx, pm } from "@/test/helpers/matching-markets";

describe("rules comparator", () => {
  const question = "Will Ada Quill leave office before 2031?";
  const news = pm("Quill out", question, {
    description: "This market will resolve to Yes if Ada Quill leaves office by December 31, 2030.\nAn announcement of her resignation will resolve this market to Yes.",
  });
  const act = kx("Quill out", question, "Ada Quill leaves office before Jan 1, 2031");

  it("returns the rule terms both state differently, each side's wording", () => {
    const r = compareRules(news, act, "equal", "equal");
    expect(r.differences.map((d) => d.term)).toEqual(["trigger"]);
    expect(r.differences[0]?.a).toMatch(/announcement of her resignation/);
  });

  it("names a deadline conflict as a difference and weighs the compared-only terms in no count", () => {
    const late = pm("Quill out", question, { description: "This market will resolve to Yes if Ada Quill leaves office.\n\nIf she has not left office by December 31, 2030, this market will resolve to No." });
    const early = kx("Quill out", question, "Ada Quill leaves office before Aug 1, 2030");
    const r = compareRules(late, early, "equal", "equal");
    expect(r.differences.map((d) => d.term)).toEqual(["deadline"]);
    // Stated alike on both sides, the deadline is still neither a term alike nor one said on one side in the fitted counts.
    const alike = compareRules(act, kx("Quill out", question, "Ada Quill leaves office before Jan 1, 2031"), "equal", "equal");
    expect(alike.differences).toEqual([]);
    expect([...alike.same, ...alike.oneSide]).not.toContain("deadline");
  });

  it("reads a deadline on one side only against the other's window: met by a window that closes by it or an event scheduled before it, else a difference", () => {
    const fallback = "\n\nIf no result is known by June 30, 2031, this market will resolve to No.";
    const withDeadline = (resolves: string) =>
      pm("Zorbia vote", "Will the Blue Party win the Zorbian referendum in 2031?", { description: `This market will resolve to Yes if the Blue Party wins the referendum.${fallback}`, resolutionDate: new Date(resolves) });
    const window = (resolves: string) => kx("Zorbia vote", "Will the Blue Party win the Zorbian referendum in 2031?", "the Blue Party wins the Zorbian referendum in 2031", { resolutionDate: new Date(resolves) });
    // The referendum is scheduled in March (one venue closes then): the deadline is met, said on one side only, weighed in no count.
    const met = compareRules(withDeadline("2031-03-15T12:00:00Z"), window("2032-01-07T15:00:00Z"), "equal", "equal");
    expect(met.differences).toEqual([]);
    expect([...met.same, ...met.oneSide]).not.toContain("deadline");
    // Neither venue closes it by the deadline, and the other's window runs to the year's end: a vote in the autumn settles them differently.
    const late = compareRules(withDeadline("2031-12-31T12:00:00Z"), window("2032-01-07T15:00:00Z"), "equal", "equal");
    expect(late.differences).toEqual([{ term: "deadline", a: expect.stringMatching(/June 30, 2031/), b: expect.stringMatching(/runs to 2031-12-31/) }]);
    // Read from the other side, the same difference with the sides swapped.
    expect(compareRules(window("2032-01-07T15:00:00Z"), withDeadline("2031-12-31T12:00:00Z"), "equal", "equal").differences).toEqual([{ term: "deadline", a: expect.stringMatching(/runs to/), b: expect.stringMatching(/June 30, 2031/) }]);
    // A window that closes by the deadline meets it.
    const early = kx("Zorbia vote", "Will the Blue Party win the Zorbian referendum before June 1, 2031?", "the Blue Party wins the Zorbian referendum", { resolutionDate: new Date("2032-01-07T15:00:00Z") });
    expect(compareRules(withDeadline("2031-12-31T12:00:00Z"), early, "equal", "equal").differences.map((d) => d.term)).not.toContain("deadline");
  });

  it("compares no rule terms of a pair that cannot both be Yes", () => {
    expect(compareRules(news, act, "disjoint", "equal").differences).toEqual([]);
  });
});

describe("form comparator", () => {
  it("reads negation, several criteria and ordinal positions", () => {
    const first = kx("Arden mayoral election", "Will Odile Varga win the first round of the 2030 Arden mayoral election?", "Odile Varga wins the first round");
    const second = pm("Arden mayoral election", "Will Odile Varga advance to the second round of the 2030 Arden mayoral election?");
    expect(compareForm(first, second).ordinals).toBe("conflict");
    expect(compareForm(first, first)).toMatchObject({ ordinals: "same", negation: false, disjunctive: null });
    const yes = pm("Rain", "Will it rain in Exampletown on May 1, 2030?");
    const no = pm("Rain", "Will it not rain in Exampletown on May 1, 2030?");
    expect(compareForm(yes, no).negation).toBe(true);
  });
});
