import { describe, expect, it } from "vitest";
import { baseForm, isCommonNoun, lemmasOf, paraphraseIn, relatedForms, WORDNET_CACHE_LIMITS, wordnetCacheSizes } from "./wordnet";

describe("paraphrase from WordNet", () => {
  it("reads synonyms and derived forms of a word's commonest senses", () => {
    expect(relatedForms("visit")).toContain("travel to");
    expect(relatedForms("hike")).toContain("raise");
    expect(relatedForms("departs")).toContain("departure");
    expect(lemmasOf("elected").map((l) => l.lemma)).toContain("elect");
    expect(baseForm("raises")).toBe("raise");
    // A word WordNet does not know (a name) has no forms.
    expect(relatedForms("zorbian").size).toBe(0);
  });

  it("finds the other side's wording of a word, a multi-word synonym only when all its words are there", () => {
    expect(paraphraseIn("visit", new Set(["travel", "to", "springfield"]))).toBe("travel to");
    expect(paraphraseIn("visit", new Set(["travel", "springfield"]))).toBeNull();
    const bases = (words: string[]) => new Set(words.flatMap((w) => [w, baseForm(w)]));
    expect(paraphraseIn("hike", bases(["raises", "rates"]))).toBe("raise");
    expect(paraphraseIn("hike", bases(["cut", "rates"]))).toBeNull();
  });

  it("tells a common noun from a proper one", () => {
    expect(isCommonNoun("airport")).toBe(true);
    expect(isCommonNoun("ecuador")).toBe(false);
  });
});

describe("WordNet's caches", () => {
  it("stay within their bounds however many words the titles bring, and still answer", () => {
    const known = relatedForms("election");
    for (let i = 0; i <= WORDNET_CACHE_LIMITS.forms; i += 1) relatedForms(`qzx${i.toString(36)}`);
    const sizes = wordnetCacheSizes();
    expect(sizes.forms).toBe(WORDNET_CACHE_LIMITS.forms);
    expect(sizes.synsets).toBeLessThanOrEqual(WORDNET_CACHE_LIMITS.synsets);
    // The oldest entry was dropped, not the answer: asked again, it is read again.
    expect(relatedForms("election")).toEqual(known);
  });
});
