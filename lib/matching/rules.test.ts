import { describe, expect, it } from "vitest";
import { extractFeatures } from "./extract";
import { boundFromFields, compareRuleTerms, compareSettlement, rangeOfRules, readRuleTerms } from "./rules";

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

  it("reads a Yes sentence that pays on the act or its announcement as counting an announcement", () => {
    const either = readRuleTerms("If the Premier of Zorbia leaves office or announces they will leave office before Apr 1, 2031, then the market resolves to Yes.", []);
    const act = readRuleTerms('This market will resolve to "Yes" if Ada Quill ceases to be the Premier of Zorbia by March 31, 2031.', []);
    expect(either.trigger?.value).toBe("announcement");
    expect(compareRuleTerms(either, act).map((d) => d.term)).toEqual(["trigger"]);
  });

  it("reads what counts from any paragraph of the rules: an announcement encompassed, or one that counts only with the act", () => {
    // The widening clause stands apart from the Yes sentence, as venues' templates put it.
    const widened = readRuleTerms(
      "If Zorbia cedes any part of the Quill Islands before Jan 1, 2031, then the market resolves to Yes.\nAn announcement by both governments that it will happen is also encompassed by the Payout Criterion.",
      [],
    );
    expect(widened.trigger).toMatchObject({ value: "announcement", wording: expect.stringMatching(/is also encompassed/) });
    const narrowed = readRuleTerms(
      "This market will resolve to Yes if Zorbia cedes control of any part of the Quill Islands by December 31, 2030, 11:59 PM ET.\n\nAn announcement will qualify only if it is accompanied by a binding agreement or a signed treaty.",
      [],
    );
    expect(narrowed.trigger).toMatchObject({ value: "event", wording: expect.stringMatching(/qualify only if/) });
    expect(compareRuleTerms(widened, narrowed).map((d) => d.term)).toEqual(["trigger"]);
    // A clause that counts an announcement for the Yes resolution, wherever it stands.
    const counted = readRuleTerms(
      "This market will resolve to Yes if the U.S. government announces the opening of a consulate in Zorbia by December 31, 2030.\n\nAn official announcement made within this market's timeframe will qualify for a Yes resolution regardless of whether the opening takes place.",
      [],
    );
    expect(counted.trigger?.value).toBe("announcement");
    // The Yes sentence whose subject announces: news of the act is what resolves.
    const announces = readRuleTerms("If the United States has announced the opening of a consulate in Zorbia before Jan 1, 2031, then the market resolves to Yes.", []);
    expect(announces.trigger?.value).toBe("announcement");
    expect(compareRuleTerms(counted, announces)).toEqual([]);
    // A list made known is not news that counts; a clause that refuses announcements is not one that counts.
    expect(readRuleTerms("If Ada Quill is among the nominees when the nominees are announced, then the market resolves to Yes.", []).trigger?.value).toBe("event");
    expect(readRuleTerms("If Ada Quill leaves office before Jun 1, 2031, then the market resolves to Yes.\nAn announcement of her resignation does not count until she leaves.", []).trigger?.value).toBe("event");
  });

  it("a party's nomination is another contest than winning the election, which implies the general election and is otherwise not counted", () => {
    const nominee = readRuleTerms(null, [], "Will Ada Quill be the Zorbian Party presidential nominee in 2032?");
    const wins = readRuleTerms(null, [], "Will Ada Quill win the 2032 presidential election?");
    expect(nominee.stage?.value).toBe("nomination");
    expect(wins.stage).toMatchObject({ value: "general", implied: true });
    expect(compareRuleTerms(nominee, wins).map((d) => d.term)).toEqual(["stage"]);
    // Implied on both sides, or implied against a side that states no stage: neither the same nor a difference.
    const elected = readRuleTerms("If Ada Quill wins the 2032 presidential election, then the market resolves to Yes.", [], "Will Ada Quill win the 2032 presidential election?");
    const noStage = readRuleTerms("If Ada Quill becomes President before 2033, then the market resolves to Yes.", []);
    expect(compareSettlement(wins, elected).states.stage).toBe("unknown");
    expect(compareSettlement(wins, noStage).states.stage).toBe("unknown");
    // A primary stated against the election won: another stage; the general election stated: one side only.
    expect(compareRuleTerms(readRuleTerms(null, [], "Will Ada Quill win the Zorbian Party primary?"), wins).map((d) => d.term)).toEqual(["stage"]);
    expect(compareSettlement(readRuleTerms(null, [], "Will Ada Quill win the 2032 general election?"), wins).states.stage).toBe("oneSide");
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

  it("reads an invitation extended against one accepted, an executive action the act must take, and an alternative event the Yes sentence pays on", () => {
    const invites = readRuleTerms("If the Quill Pact invites a new country to be a member before Jan 1, 2031, then the market resolves to Yes.", []);
    const accepts = readRuleTerms('This market will resolve to "Yes" if a new country accepts an invitation to join the Quill Pact by December 31, 2030, 11:59 PM ET.', []);
    expect(invites.act?.value).toBe("invitation extended");
    expect(accepts.act?.value).toBe("invitation accepted");
    expect(compareRuleTerms(invites, accepts).map((d) => d.term)).toEqual(["act"]);
    // An act the rules require be done by executive order narrows it: a condition, a conflict against rules that need none.
    const executive = readRuleTerms("If the President has issued an executive order creating a widget reserve before Jan 1, 2031, then the market resolves to Yes.", []);
    const any = readRuleTerms('This market will resolve to "Yes" if Zorbia holds any widgets in its reserves by December 31, 2030.', []);
    expect(executive.conditions?.value).toBe("by executive order or action");
    expect(compareSettlement(executive, any).states.conditions).toBe("conflict");
    // "If <subject> becomes <office> and <the act>": taking the office first is a condition.
    const office = readRuleTerms("If Ada Quill becomes Prime Minister and the widget levy is at least 6% by Q4 2031, then the market resolves to Yes.", []);
    expect(office.conditions?.value).toBe("takes the office first");
    expect(readRuleTerms("If Ada Quill becomes Prime Minister before Jan 1, 2031, then the market resolves to Yes.", []).conditions).toBeUndefined();
    // "..., or he resigns, before ...": the Yes sentence pays on another event besides the act.
    const either = readRuleTerms("If a motion of no confidence in the Premier of Zorbia passes, or he resigns, before Apr 1, 2031, then the market resolves to Yes.", []);
    const only = readRuleTerms('This market will resolve to "Yes" if a motion of no confidence passes in the Zorbian assembly by March 31, 2031.', []);
    expect(either.trigger?.value).toBe("the act or another event");
    expect(compareRuleTerms(either, only).map((d) => d.term)).toEqual(["trigger"]);
    expect(readRuleTerms("If Ada Quill wins, or if the count is above 5, then the market resolves to Yes.", []).trigger?.value).toBe("event");
    // "after which this market resolves" says when, not a second event.
    expect(readRuleTerms('If the Zorbian assembly holds an extraordinary session, after which this market will be resolved, the market resolves to "Yes".', []).conditions).toBeUndefined();

  });

  // Conditions that narrow the act, each against rules that state none (a conflict) and a rule that
  // reads alike without the condition (none read).
  it.each([
    ["a race among a set", "If Ada Quill is the first leader among the above to leave office, then the market resolves to Yes.", "first among a set"],
    ["an interim holder left out", 'This market will resolve to "Yes" if Ada Quill is the next Premier of Zorbia.\n\nAny interim/caretaker Premier will not count toward the resolution of this market.', "interim holder excluded"],
    ["a second event that must follow", 'This market will resolve to "Yes" if the Zorbian assembly holds an extraordinary session after which the widget levy is lowered by December 31, 2030.', "another event must follow"],
  ])("reads %s as a condition", (_kind, rules, condition) => {
    const plain = readRuleTerms('This market will resolve to "Yes" if Ada Quill ceases to be Premier of Zorbia for any length of time by December 31, 2030.', []);
    const read = readRuleTerms(rules, []);
    expect(read.conditions?.value).toBe(condition);
    expect(compareSettlement(read, plain).states.conditions).toBe("conflict");
    expect(plain.conditions).toBeUndefined();
  });

  it("reads the place a Yes sentence requires: a place against a bar is a conflict, the same place in other words is not", () => {
    const most = readRuleTerms("If the Zorbian Greens win the most seats in the 2031 Zorbian assembly election, then the market resolves to Yes.", []);
    const group = readRuleTerms('This market will resolve to "Yes" if the Zorbian Greens enter the Zorbian assembly as a parliamentary group as a result of the 2031 election.', []);
    expect(most.rank?.value).toBe("place 1");
    expect(group.rank).toBeUndefined();
    expect(compareSettlement(most, group).states.rank).toBe("conflict");
    expect(compareRuleTerms(most, group)[0]).toMatchObject({ term: "rank", a: expect.stringMatching(/most seats/), b: "(no such condition)" });
    const anyOther = readRuleTerms("If Ada Quill receives more votes than any other candidate in the first round, then the market resolves to Yes.", []);
    expect(compareSettlement(readRuleTerms('This market will resolve to "Yes" if Ada Quill wins the most votes in the first round.', []), anyOther).states.rank).toBe("same");
    const second = readRuleTerms('This market will resolve to "Yes" if the Zorbian Greens win the second most seats in the assembly.', []);
    const gets2nd = readRuleTerms("If the Zorbian Greens gets 2nd in the Zorbian assembly election in 2031, then the market resolves to Yes.", []);
    expect(second.rank?.value).toBe("place 2");
    expect(compareSettlement(second, gets2nd).states.rank).toBe("same");
    expect(compareSettlement(second, most).states.rank).toBe("conflict");
    // The question says the place when the rules name no Yes ("resolves to the party that wins ...").
    const named = readRuleTerms("This market will resolve to the party that wins the greatest number of the seats contested.", [], "Will the Zorbian Greens win the most seats in 2031?");
    expect(compareSettlement(named, most).states.rank).toBe("same");
    // Against a side whose rules were not read: said on one side only (and, as compared and not weighed, not counted).
    expect(compareSettlement(most, readRuleTerms(null, [], "Will the Zorbian Greens win the most seats?")).states.rank).toBe("oneSide");
  });

  it("rules that describe both rounds of a two-round election state no stage of it", () => {
    const rounds = readRuleTerms(
      "This market will resolve to Yes if Ada Quill wins the Zorbian presidential election.\nThe first round is scheduled for May 4, with a second round on May 18 if no candidate receives a majority; this market resolves to Yes if she wins.",
      [],
      "Will Ada Quill win the Zorbian presidential election?",
    );
    const wins = readRuleTerms("If Ada Quill wins the next Zorbian presidential election, then the market resolves to Yes.", [], "Will Ada Quill win the 2031 Zorbian presidential election?");
    expect(rounds.stage?.value ?? "general").toBe("general");
    expect(compareRuleTerms(rounds, wins)).toEqual([]);
    expect(readRuleTerms(null, [], "Will Ada Quill win the first round of the Zorbian presidential election?").stage?.value).toBe("first round");
  });

  it("reads the venue's strike fields before the text: each kind, both ends of a bracket included, no bound from a custom strike", () => {
    expect(boundFromFields({ strikeType: "greater", floorStrike: 4.5 })?.value).toBe("> 4.5");
    expect(boundFromFields({ strikeType: "greater_or_equal", floorStrike: 4.5 })?.value).toBe("≥ 4.5");
    expect(boundFromFields({ strikeType: "less", capStrike: 91 })?.value).toBe("< 91");
    expect(boundFromFields({ strikeType: "less_or_equal", capStrike: 91 })?.value).toBe("≤ 91");
    expect(boundFromFields({ strikeType: "between", floorStrike: 91, capStrike: 92 })?.value).toBe("≥ 91 ≤ 92");
    expect(boundFromFields({ strikeType: "custom" })).toBeUndefined();
    expect(boundFromFields({ strikeType: "greater" })).toBeUndefined();
    // The fields win over the text's reading ("above" read as exclusive; the field says inclusive).
    const rules = "If the index is above 4,000 on Jun 1, 2031, then the market resolves to Yes.";
    expect(readRuleTerms(rules, []).bound?.value).toBe("> 4000");
    const fielded = readRuleTerms(rules, [], "", { strikeType: "greater_or_equal", floorStrike: 4000 });
    expect(fielded.bound).toEqual({ value: "≥ 4000", wording: "strike_type greater_or_equal, floor_strike 4000" });
    // Against a side whose rules say "more than 4,000": the same number, included on one side only.
    const other = readRuleTerms("If the index is more than 4,000 on Jun 1, 2031, then the market resolves to Yes.", []);
    expect(compareRuleTerms(fielded, other).map((d) => d.term)).toEqual(["bound"]);
    // A bracket's upper end against a cap: the same number, included on one side only.
    const bracket = readRuleTerms(null, [], "", { strikeType: "between", floorStrike: 84, capStrike: 85 });
    const below = readRuleTerms(null, [], "", { strikeType: "less", capStrike: 85 });
    expect(compareSettlement(bracket, below).states.bound).toBe("conflict");
    // Another number is the interval comparison's concern, not this term's.
    expect(compareSettlement(fielded, readRuleTerms(null, [], "", { strikeType: "greater", floorStrike: 4100 })).states.bound).toBe("same");
  });

  it("reads a bracket's edges: each said included or excluded, both included, or left unsaid; the same bracket said on one side only is said on one side", () => {
    const each = readRuleTerms('Intro.\n\nThis market will resolve to "Yes" if the Zorbian Party wins between 25% (inclusive) and 30% (exclusive) of all party list votes. Otherwise "No".', []);
    expect(each.bound?.value).toBe("≥ 25 < 30");
    const unsaid = readRuleTerms("If the Zorbian Party receives 25% to 30% share of the vote in the 2031 election, then the market resolves to Yes.", []);
    expect(unsaid.bound?.value).toBe("25..30 edges unstated");
    // Edges said on one side and left unsaid on the other, with nothing known of the unsaid side's event: said on one side only.
    const oneSide = compareSettlement(each, unsaid);
    expect(oneSide.states.bound).toBe("oneSide");
    expect(oneSide.differences).toEqual([]);
    expect(readRuleTerms('This market will resolve to "Yes" if between 45 (inclusive) and 50 (inclusive) senators vote in favor.', []).bound?.value).toBe("≥ 45 ≤ 50");
    expect(readRuleTerms('This market will resolve to "Yes" if the cut is between 5-10 bps (inclusive).', []).bound?.value).toBe("≥ 5 ≤ 10");
    const temperature = readRuleTerms("If the high temperature is between 45-46°, then the market resolves to Yes.", []);
    expect(temperature.bound?.value).toBe("45..46 edges unstated");
    // Neither says: unknown (never the same); another bracket is the interval comparison's concern.
    expect(compareSettlement(temperature, readRuleTerms("If the high temperature is between 45 and 46°F, then the market resolves to Yes.", [])).states.bound).toBe("unknown");
    expect(compareSettlement(each, readRuleTerms("If the Zorbian Party receives 30% to 35% of the vote, then the market resolves to Yes.", [])).states.bound).toBe("oneSide");
    // Two years are a window, not a bracket; a venue's "between" field states both edges included.
    expect(readRuleTerms('This market will resolve to "Yes" if it happens between 2030 and 2031.', []).bound).toBeUndefined();
    expect(compareSettlement(readRuleTerms(null, [], "", { strikeType: "between", floorStrike: 25, capStrike: 30 }), unsaid).states.bound).toBe("oneSide");
  });

  it("reads an unsaid bracket with its event's other brackets: whole values settle both edges, a shared edge or a gap on a share opens them", () => {
    const fields = (lo: number, hi: number) => readRuleTerms(null, [], "", { strikeType: "between", floorStrike: lo, capStrike: hi });
    // A temperature in whole degrees, its event's brackets leaving no whole value between them: both ends included.
    const heat = (b: string) => `This market resolves "Yes" if the high temperature recorded at Zed Field on May 3, 2031 is ${b}°F. Otherwise, "No".\n\nTemperatures are in whole degrees Fahrenheit.`;
    const heatEvent = ["60 or below", "61 to 62", "63 to 64", "65 or above"].map((b) => rangeOfRules(heat(b)));
    expect(heatEvent).toEqual([[null, 60], [61, 62], [63, 64], [65, null]]);
    const tiled = readRuleTerms(heat("61 to 62"), [], "", undefined, heatEvent.filter((r) => r !== undefined));
    expect(tiled.bound?.value).toBe("≥ 61 ≤ 62");
    expect(tiled.bound?.wording).toMatch(/whole values/);
    expect(compareSettlement(tiled, fields(61, 62)).states.bound).toBe("same");
    expect(compareSettlement(tiled, readRuleTerms('This market will resolve to "Yes" if the high is between 61 (inclusive) and 62 (exclusive).', [])).states.bound).toBe("conflict");
    // A count written in whole numbers settles the same way; a bracket sharing an edge with another opens both.
    const launches = (b: string) => `If there are ${b} launches of the Zed rocket in 2031, then the market resolves to Yes.`;
    const shared = readRuleTerms(launches("between 5 and 10"), [], "", undefined, [[5, 10], [10, 15]]);
    expect(shared.bound?.value).toBe("5..10 edges open");
    expect(compareSettlement(shared, fields(5, 10)).states.bound).toBe("conflict");
    // A share of the vote is not whole: a next bracket with a gap between (24.9 beside 25) shows the venue rounds, unsaid how.
    const share = (b: string) => `If the Zorbian Party receives ${b} share of the vote in the 2031 election, then the market resolves to Yes.`;
    const shareEvent = ["10% or below", "20% to 24.9%", "25% to 30%", "30.1% or above"].map((b) => rangeOfRules(share(b)));
    expect(shareEvent).toEqual([[null, 10], [20, 24.9], [25, 30], [30.1, null]]);
    const gapped = readRuleTerms(share("25% to 30%"), [], "", undefined, shareEvent.filter((r) => r !== undefined));
    expect(gapped.bound?.value).toBe("25..30 edges open");
    const stated = readRuleTerms('This market will resolve to "Yes" if the Zorbian Party wins between 25% (inclusive) and 30% (inclusive) of the vote.', []);
    const open = compareSettlement(gapped, stated);
    expect(open.states.bound).toBe("conflict");
    expect(open.differences[0]).toMatchObject({ term: "bound", a: expect.stringMatching(/25% to 30%.*24\.9/), b: expect.stringMatching(/\(inclusive\)/) });
    // A share whose event's other brackets are far from it, or with no other bracket known: unsaid, said on one side only.
    expect(readRuleTerms(share("25% to 30%"), [], "", undefined, [[25, 30], [60, 70]]).bound?.value).toBe("25..30 edges unstated");
    expect(compareSettlement(readRuleTerms(share("25% to 30%"), [], "", undefined, [[25, 30]]), stated).states.bound).toBe("oneSide");
    // Integer edges of a share are not whole values: a share's brackets that share no edge settle nothing.
    expect(readRuleTerms(share("25% to 30%"), [], "", undefined, [[25, 30], [40, 45]]).bound?.value).toBe("25..30 edges unstated");
  });

  it("reads the date a window opens, with the year its closing date gives: two openings more than a day apart conflict", () => {
    const fromNewYear = readRuleTerms('This market will resolve to "Yes" if a trading halt is triggered on the Zed Exchange at any time between January 1 and market close on December 31, 2031. Otherwise, "No".', []);
    expect(fromNewYear.windowStart?.value).toBe("date 2031-01-01");
    const fromDecember = readRuleTerms("If any Zed Exchange trading halt is imposed after December 20, 2030 and before Jan 1, 2032, then the market resolves to Yes.", []);
    expect(fromDecember.windowStart?.value).toBe("date 2030-12-20");
    const conflict = compareSettlement(fromNewYear, fromDecember);
    expect(conflict.states.windowStart).toBe("conflict");
    expect(conflict.differences.map((d) => d.term)).toEqual(["windowStart"]);
    // The evening before is the same opening; a date without its year is not compared further.
    expect(compareSettlement(fromNewYear, readRuleTerms("If any Zed Exchange trading halt is imposed after December 31, 2030 and before Jan 1, 2032, then the market resolves to Yes.", [])).states.windowStart).toBe("same");
    expect(compareSettlement(fromDecember, readRuleTerms("If a Zed Exchange trading halt is imposed starting on March 3, then the market resolves to Yes.", [])).states.windowStart).toBe("same");
  });

  it("holds one bracket-edge order: the venue's fields, then the rules' words, then their rule for a value on an edge, then the event's other brackets", () => {
    // An unsaid edge, nothing known of its event: against a side that says both, said on one side only.
    const unsaid = readRuleTerms("If the high temperature is between 45-46°, then the market resolves to Yes.", []);
    expect(unsaid.bound?.value).toBe("45..46 edges unstated");
    expect(compareSettlement(unsaid, readRuleTerms(null, [], "", { strikeType: "between", floorStrike: 45, capStrike: 46 })).states.bound).toBe("oneSide");
    // The rules' own edge rule is read before the event's brackets.
    expect(readRuleTerms("If the score is between 60 and 70, then the market resolves to Yes. If the value is exactly on the boundary of two brackets, the market resolves to the lower bracket.", [], "", undefined, [[50, 59], [71, 80]]).bound?.value).toBe("> 60 ≤ 70");
    // A value exactly on an edge sent to the higher bracket: a lower edge included, an upper one excluded.
    const higher = readRuleTerms(
      "This market will resolve according to the Zorbian Review Index score for the film as of Mar 3, 2031 at 10:00AM ET.\n\nIf the reported value falls exactly between two brackets, then this market will resolve to the higher range bracket.",
      [],
      "Will the film's Zorbian Review Index score be greater than 70?",
    );
    expect(higher.bound?.value).toBe("≥ 70");
    expect(higher.bound?.wording).toMatch(/higher range bracket/);
    const strict = readRuleTerms("If the film has a Zorbian Review Index score of above 70 on Mar 3, 2031 at 10:00AM ET, then the market resolves to Yes.", []);
    expect(strict.bound?.value).toBe("> 70");
    expect(compareSettlement(higher, strict).states.bound).toBe("conflict");
    expect(compareSettlement(higher, readRuleTerms("If the film's score is 70 or above on Mar 3, 2031, then the market resolves to Yes.", [])).states.bound).toBe("same");
    // The edge rule settles an unsaid bracket's edges; sent to the lower bracket, the reverse.
    expect(readRuleTerms("If the score is between 60 and 70, then the market resolves to Yes. If the value is exactly on the boundary of two brackets, the market resolves to the lower bracket.", []).bound?.value).toBe("> 60 ≤ 70");
    // Without the edge rule, the question's bound is not read (the rules say what they count).
    expect(readRuleTerms("This market will resolve according to the index as of Mar 3, 2031.", [], "Will the index be greater than 70?").bound).toBeUndefined();
  });

  it("reads a deadline from any paragraph, fallback ones included: another deadline conflicts, the same day in other words does not, one side's is unsaid", () => {
    const fallback = readRuleTerms(
      'This market will resolve to "Yes" if Ada Quill receives fewer than 40 YEA votes in the first roll-call vote on her confirmation.\n\nIf no vote occurs before December 31, 2031, 11:59 PM ET, this market will resolve to "Yes".',
      [],
    );
    const early = readRuleTerms("If below 40 Senators vote in favor of confirming Ada Quill before Aug 1, 2031, then the market resolves to Yes.", []);
    expect(fallback.deadline?.value).toBe("2031-12-31");
    expect(early.deadline?.value).toBe("2031-08-01");
    const conflict = compareSettlement(fallback, early);
    expect(conflict.states.deadline).toBe("conflict");
    expect(conflict.differences.find((d) => d.term === "deadline")).toMatchObject({ a: expect.stringMatching(/no vote occurs before December 31/), b: expect.stringMatching(/before Aug 1, 2031/) });
    // "by" a day ends as it ends; "before" the next day, a window's closing day: the same deadline.
    const byDay = readRuleTerms('This market will resolve to "Yes" if Ada Quill visits Zorbia by December 31, 2031, 11:59 PM ET.', []);
    const window = readRuleTerms('This market will resolve to "Yes" if Ada Quill visits Zorbia between January 1 and December 31, 2031.', []);
    const before = readRuleTerms("If Ada Quill visits Zorbia before Jan 1, 2032, then the market resolves to Yes.", []);
    expect(byDay.deadline?.value).toBe("2032-01-01");
    expect(compareSettlement(byDay, before).states.deadline).toBe("same");
    expect(compareSettlement(window, before).states.deadline).toBe("same");
    // The latest deadline the rules state is the one compared; none stated is one side only, never the same.
    expect(readRuleTerms("If Ada Quill visits Zorbia by March 31, 2031, this market resolves to Yes. If the visit is postponed, a visit by June 30, 2031 also counts.", []).deadline?.value).toBe("2031-07-01");
    expect(compareSettlement(before, readRuleTerms("If Ada Quill visits Zorbia, then the market resolves to Yes.", [])).states.deadline).toBe("oneSide");
  });

  // Each row: a term, what the row shows, two markets' rules and questions, the values read, and how they compare.
  const majorityRules = "If the Zorbian Party majority make up the next elected government of Zorbia, then the market resolves to Yes.";
  const firstCoalition = "This market will resolve to the first ruling coalition that forms after the next Zorbian election.";
  const listedQuestion = "Will Blue Party, Greens, and Reds form the next Zorbian government?";
  const twoSided: Array<[term: "seats" | "members", what: string, a: [string, string], b: [string, string], values: [string, string], state: string]> = [
    ["seats", "a seat count is not a majority claim", ['This market will resolve to "Yes" if the Zorbian Party wins a majority of seats (180 or more) in the Assembly as a result of the next election.', "Zorbian Party wins majority in the election?"], [majorityRules, "Will a Zorbian Party majority make up the next government of Zorbia?"], ["≥ 180 seats", "majority"], "conflict"],
    ["seats", "a majority and control of the chamber are one claim", [majorityRules, ""], ["If the Zorbian Party wins control of the Assembly in the next election, then the market resolves to Yes.", ""], ["majority", "majority"], "same"],
    ["seats", "the same count in other words", ['This market will resolve to "Yes" if the Zorbian Party wins a majority of seats (180 or more) in the Assembly.', ""], ["If the Zorbian Party wins at least 180 seats in the Assembly, then the market resolves to Yes.", ""], ["≥ 180 seats", "≥ 180 seats"], "same"],
    ["members", "a list in brackets after the coalition's name against the list that forms the government", [firstCoalition, listedQuestion], ["If the Harbour Coalition (Blue Party, Greens, Yellows) make up the next elected government of Zorbia, then the market resolves to Yes.", "Will Harbour Coalition (Blue Party, Greens, Yellows) make up the next government of Zorbia?"], ["blue party | greens | reds", "blue party | greens | yellows"], "conflict"],
    ["members", "a list in brackets after a nickname", [firstCoalition, listedQuestion], ["If the Kite (Blue Party and Greens) make up the next elected government of Zorbia, then the market resolves to Yes.", ""], ["blue party | greens | reds", "blue party | greens"], "conflict"],
    ["members", "the same members in another order", [firstCoalition, listedQuestion], ["If Greens, Reds and Blue Party make up the next elected government of Zorbia, then the market resolves to Yes.", ""], ["blue party | greens | reds", "blue party | greens | reds"], "same"],
  ];
  it.each(twoSided)("reads %s on both sides: %s", (term, _what, a, b, values, state) => {
    const x = readRuleTerms(a[0], [], a[1]);
    const y = readRuleTerms(b[0], [], b[1]);
    expect([x[term]?.value, y[term]?.value]).toEqual(values);
    expect(compareSettlement(x, y).states[term]).toBe(state);
  });

  it("reads no seats from a majority vote of a body, and no members from a list outside a coalition or a government", () => {
    expect(readRuleTerms("If Ada Quill is confirmed by a majority vote of the Senate, then the market resolves to Yes.", []).seats).toBeUndefined();
    expect(readRuleTerms('This market will resolve to "Yes" if a government ban prohibits the use of the app by the majority of residents of Zorbia.', []).seats).toBeUndefined();
    expect(readRuleTerms("If Blue, Green and Red win medals, then the market resolves to Yes.", []).members).toBeUndefined();
  });

  it("reads a report of the act as another trigger than the act or the subject's announcement, and a definition the act must meet as an added condition", () => {
    const reported = readRuleTerms("If Ada Quill is reported to have visited the Quill Estate before Jan 1, 2032, then the market resolves to Yes.", []);
    expect(reported.trigger?.value).toBe("report");
    expect(compareSettlement(reported, readRuleTerms('This market will resolve to "Yes" if Ada Quill visits Zorbia by December 31, 2031.', [])).states.trigger).toBe("conflict");
    expect(compareSettlement(reported, readRuleTerms('This market will resolve to "Yes" if Ada Quill announces that she will resign by December 31, 2031.', [])).states.trigger).toBe("conflict");
    const defined = readRuleTerms('This market will resolve to "Yes" if Zorbia conducts elections for a new national government by June 30, 2031.\n\nQualifying elections must allow for voting across a majority of the territory.', []);
    expect(defined.conditions?.value).toBe("a definition the act must meet");
    const leftOut = readRuleTerms("This market will resolve to the first ruling coalition that forms after the next Zorbian election.\n\nIf a party wins fewer than 5% of the seats it will not be counted as part of the coalition.", [], listedQuestion);
    expect(leftOut.conditions?.value).toBe("a member left out of the count");
    expect(compareSettlement(leftOut, readRuleTerms("If Greens, Reds and Blue Party make up the next elected government of Zorbia, then the market resolves to Yes.", [])).states.conditions).toBe("conflict");
    expect(compareSettlement(defined, readRuleTerms("If Zorbia holds elections for national office before Jul 1, 2031, then the market resolves to Yes.", [])).states.conditions).toBe("conflict");
    // A count of units of a size against a count of acts: one act may count twice on one side only.
    const units = readRuleTerms('This market will resolve to "Yes" if there are exactly 4 hikes of 25 basis points by the Zorbian central bank in 2031. A hike of 50 bps would be considered 2 hikes.', []);
    expect(units.conditions?.value).toBe("a unit each act counts as");
    expect(compareSettlement(units, readRuleTerms("If the Zorbian central bank hikes 4 times before 2032, then the market resolves to Yes.", [])).states.conditions).toBe("conflict");
    expect(compareSettlement(units, units).states.conditions).toBe("same");
    // The act in every month of the window against the act once in it.
    const everyMonth = readRuleTerms("If Aldren launches a rocket in every month of 2031, then the market resolves to Yes.", []);
    expect(everyMonth.conditions?.value).toBe("the act in every period");
    expect(compareSettlement(everyMonth, readRuleTerms('This market will resolve to "Yes" if the seventh Aldren rocket launch reaches orbit by December 31, 2031.', [])).states.conditions).toBe("conflict");
  });

  it("reads the secondary rules with the main ones, and the sources the venue names before the text's", () => {
    const main = "If Ada Quill wins the race for Governor of Zorbia, then the market resolves to Yes.";
    expect(readRuleTerms(main, []).stage).toBeUndefined();
    expect(readRuleTerms(main, [], "", { rulesSecondary: "Only the Democratic primary counts; the market resolves to Yes on its certified result." }).stage?.value).toBe("primary");
    const input = { id: "m", venue: "kalshi", eventId: "e", category: "Economics", title: "Zorbia's unemployment rate", eventTitle: "Zorbia's unemployment rate", yesLabel: null, resolutionDate: null };
    const fromText = extractFeatures({ ...input, description: "If the unemployment rate reported by the BEA is above 5% for June 2031, then the market resolves to Yes." });
    expect(fromText.sources).toEqual(["bureau of economic analysis"]);
    const fromFields = extractFeatures({ ...input, description: "If the unemployment rate reported by the BEA is above 5% for June 2031, then the market resolves to Yes.", settlement: { sources: [{ name: "Bureau of Labor Statistics", url: "https://www.bls.gov/" }] } });
    expect(fromFields.sources).toEqual(["bureau of labor statistics"]);
    // A named source the vocabulary does not know leaves the text's reading.
    expect(extractFeatures({ ...input, description: "If the unemployment rate reported by the BEA is above 5% for June 2031, then the market resolves to Yes.", settlement: { sources: [{ name: "Zorbia Office of Counting" }] } }).sources).toEqual(["bureau of economic analysis"]);
  });
});
