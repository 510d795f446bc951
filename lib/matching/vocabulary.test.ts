import { describe, expect, it } from "vitest";
import vocabulary from "./data/vocabulary.json";
import { canonicalTokens } from "./extract";

/**
 * The vocabulary holds no dead entry: every section says where it comes from, no list repeats an
 * entry, no looked-up word is one the rewrites have already replaced (it could never be seen), no
 * rewrite's target is rewritten again, and no phrase rewrite says what its words' rewrites already
 * say.
 */
const sections = Object.entries(vocabulary as unknown as Record<string, { source?: unknown; entries?: unknown }>).filter(([k]) => k !== "about");
const words = (vocabulary as unknown as { words: { entries: Record<string, string> } }).words.entries;
const phrases = (vocabulary as unknown as { phrases: { entries: Record<string, string> } }).phrases.entries;
const listOf = (entries: unknown): string[] => (Array.isArray(entries) ? (entries as string[]) : Object.keys(entries as Record<string, unknown>));

describe("the matching vocabulary", () => {
  it("has a source for every section", () => {
    expect(sections.length).toBeGreaterThan(10);
    for (const [name, section] of sections) expect(typeof section.source === "string" && section.source.length > 40 ? name : `${name} has no source`).toBe(name);
  });

  it("repeats no entry within a section", () => {
    const repeated = sections.flatMap(([name, s]) => listOf(s.entries).filter((e, i, all) => all.indexOf(e) !== i).map((e) => `${name}: ${e}`));
    expect(repeated).toEqual([]);
  });

  it("looks up no word the rewrites replace before the lookup", () => {
    // Single words looked up among rewritten words: one the rewrites replace is never seen.
    const dead = sections
      .filter(([name]) => ["stopwords", "genericWords", "modeWords"].includes(name))
      .flatMap(([name, s]) => listOf(s.entries).filter((e) => words[e] !== undefined).map((e) => `${name}: ${e} (-> ${words[e]})`));
    expect(dead).toEqual([]);
    // Typed terms are keyed by their words' rewrites: two that rewrite alike would hide one.
    const typed = ["parties", "offices", "competitions", "assets", "indicators", "orgs"].flatMap((name) => listOf((vocabulary as unknown as Record<string, { entries: unknown }>)[name]?.entries));
    const keys = typed.map((e) => e.split(" ").map((w) => words[w] ?? w).join(" "));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it("rewrites in one step, and no phrase rewrite repeats its words' rewrites", () => {
    expect(Object.entries(words).filter(([, to]) => words[to] !== undefined)).toEqual([]);
    expect(Object.entries(phrases).filter(([from, to]) => from.split(" ").map((w) => words[w] ?? w).join(" ") === to)).toEqual([]);
  });

  it("finds a typed term whose words the rewrites change", async () => {
    // "champions" is read "champion": the competition is still found.
    const { findConcepts } = await import("./text");
    expect(findConcepts(canonicalTokens("Will Zorbia FC win the Champions League?")).hits.map((h) => h.canon)).toContain("champions league");
  });

  it("rewrites a policy verb only as a move: a chamber, a price or a name keeps its word", () => {
    // Invented examples: "lower" as a move of rates, and "lower" naming a chamber or a level.
    expect(canonicalTokens("Will the central bank lower rates in June?")).toContain("cut");
    expect(canonicalTokens("Will Zorbia's Lower house pass the budget?")).toEqual(expect.arrayContaining(["lower", "house"]));
    expect(canonicalTokens("Will Zorbia's Lower house pass the budget?")).not.toContain("cut");
    expect(canonicalTokens("Will the price close lower than $5 in Zorbia?")).not.toContain("cut");
  });
});
