import { describe, expect, it } from "vitest";
import { compareRuleTerms, readRuleTerms } from "./rules";

describe("rule terms", () => {
  it("reads what counts, the deadline's zone, the bound, the station and the window's start", () => {
    const terms = readRuleTerms(
      "This market will resolve to Yes if Ada Quill ceases to be Minister of Widgets between market creation and May 31, 2031, 11:59 PM ET.\n\nAn announcement of her resignation before the end date will immediately resolve this market to Yes.\n\nThe high is read at Springfield Municipal Airport.",
      [],
    );
    expect(terms.trigger?.value).toBe("announcement");
    expect(terms.trigger?.wording).toMatch(/announcement of her resignation/);
    expect(terms.deadlineZone?.value).toBe("ET");
    expect(terms.windowStart?.value).toBe("listing");
    expect(terms.station?.value).toBe("springfield municipal airport");
    const bound = readRuleTerms("If the index is at or above 4,000.00 at 5 PM UTC on Jun 1, 2031, then the market resolves to Yes.", []);
    expect(bound.bound?.value).toBe("≥ 4000");
    expect(bound.deadlineZone?.value).toBe("UTC");
    expect(readRuleTerms("If the count is more than 12 on Jun 1, 2031, then the market resolves to Yes.", []).bound?.value).toBe("> 12");
    expect(readRuleTerms(null, [])).toEqual({});
  });

  it("a rule that counts an announcement differs from one that needs the act; each side keeps its words", () => {
    const news = readRuleTerms("This market resolves to Yes if Ada Quill leaves office by May 31, 2031.\nAn announcement of her departure will resolve this market to Yes.", []);
    const act = readRuleTerms("If Ada Quill leaves office before Jun 1, 2031, then the market resolves to Yes. She must actually vacate the role.", []);
    const differences = compareRuleTerms(news, act);
    expect(differences.map((d) => d.term)).toEqual(["trigger"]);
    expect(differences[0]?.a).toMatch(/announcement of her departure/);
    expect(differences[0]?.b).toMatch(/If Ada Quill leaves office/);
    // Two rules that both need the act agree.
    expect(compareRuleTerms(act, readRuleTerms("This market will resolve to Yes if Ada Quill leaves office by May 31, 2031.", []))).toEqual([]);
  });

  it("compares a term only when both state it, a bound only on the same number, sources only when none is shared", () => {
    const et = readRuleTerms("If it happens by 11:59 PM ET on Jun 1, 2031, then the market resolves to Yes.", []);
    const utc = readRuleTerms("If it happens by 23:59 UTC on Jun 1, 2031, then the market resolves to Yes.", []);
    const none = readRuleTerms("If it happens by Jun 1, 2031, then the market resolves to Yes.", []);
    expect(compareRuleTerms(et, utc).map((d) => d.term)).toEqual(["deadlineZone"]);
    expect(compareRuleTerms(et, none)).toEqual([]);
    const inclusive = readRuleTerms("If the count is at least 12, then the market resolves to Yes.", []);
    const exclusive = readRuleTerms("If the count is more than 12, then the market resolves to Yes.", []);
    const another = readRuleTerms("If the count is more than 15, then the market resolves to Yes.", []);
    expect(compareRuleTerms(inclusive, exclusive).map((d) => d.term)).toEqual(["bound"]);
    expect(compareRuleTerms(inclusive, another)).toEqual([]);
    // Two price feeds settle one question; two agencies that call a result do not.
    expect(compareRuleTerms(readRuleTerms("Resolves to Yes on the feed.", ["binance"]), readRuleTerms("Resolves to Yes on the index.", ["cf benchmarks"]))).toEqual([]);
    expect(compareRuleTerms(readRuleTerms("Resolves to Yes per the agency.", ["bureau of labor statistics"]), readRuleTerms("Resolves to Yes per the agency.", ["bureau of economic analysis"])).map((d) => d.term)).toEqual(["source"]);
  });
});
