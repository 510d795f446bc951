/**
 * General knowledge the extractor needs to read market questions: canonical forms of words and
 * phrases that venues spell differently, and typed gazetteers (places, parties, offices,
 * competitions, assets, indicators). Nothing here names a particular market: every entry is a
 * fact about the world or about how venues word questions, so it applies to questions not yet seen.
 */

export type ConceptType =
  | "state"
  | "country"
  | "city"
  | "party"
  | "office"
  | "competition"
  | "asset"
  | "indicator"
  | "org";

/** Concept types that locate or scope a question: a different value means a different question. */
export const contextTypes: readonly ConceptType[] = ["state", "country", "city", "office", "competition", "asset", "indicator", "org"];

export const stopwords = new Set(
  (
    "a an the of in on at by for to from with and or will be is are was were been being this that these those " +
    "it its as than then if which who whom what when where how why there their his her he she they them any all " +
    "after before until through during between into over under about above below market markets resolve resolves " +
    "resolved yes no otherwise does do did has have had not per more less least most up down out than would could " +
    "should may might can us u s one two each other such same following according reported announced official " +
    "officially publicly question questions whether also only first final end ends ending being via get gets et est edt pm am time"
  ).split(" "),
);

/** Words that carry no topic on their own (kept out of topic similarity, kept in the text). */
export const genericWords = new Set(
  "win wins winner won champion championship title race election elections party parties price value rate level named name happen happens occur year month day week date time"
    .split(" "),
);

/** Multi-word phrases rewritten before tokenizing (lower case, longest first). */
const phraseRewrites: Array<[string, string]> = [
  ["federal reserve", "fed"],
  ["federal funds", "fed funds"],
  ["fomc", "fed"],
  ["democratic party", "democrat"],
  ["republican party", "republican"],
  ["u.s. senate", "senate"],
  ["us senate", "senate"],
  ["u.s. senator", "senate"],
  ["u.s. house", "house"],
  ["house of representatives", "house"],
  ["pro basketball", "nba"],
  ["pro baseball", "mlb"],
  ["pro football", "nfl"],
  ["pro hockey", "nhl"],
  ["world series", "mlb finals"],
  ["stanley cup", "nhl finals"],
  ["super bowl", "nfl finals"],
  ["english premier league", "premier league"],
  ["epl", "premier league"],
  ["western conference", "west conference"],
  ["eastern conference", "east conference"],
  ["highest temperature", "high temperature"],
  ["high temp", "high temperature"],
  ["maximum temperature", "high temperature"],
  ["lowest temperature", "low temperature"],
  ["low temp", "low temperature"],
  ["consumer price index", "cpi"],
  ["unemployment rate", "unemployment"],
  ["u-3", "unemployment"],
  ["shut down", "shutdown"],
  ["interest rates", "rates"],
  ["interest rate", "rates"],
  ["basis points", "bps"],
  ["basis point", "bps"],
  ["new york city", "new york"],
  ["nyc", "new york"],
  ["washington, d.c.", "washington dc"],
  ["washington d.c.", "washington dc"],
  ["united states", "usa"],
  ["united kingdom", "uk"],
  ["great britain", "uk"],
  ["real-time index", "index"],
  ["person of the year", "person_of_the_year"],
  ["box office", "box_office"],
  ["opening weekend", "opening_weekend"],
  ["prime minister", "prime_minister"],
  ["artificial intelligence", "ai"],
];

/** Single words rewritten to a canonical form. */
const wordRewrites: Record<string, string> = {
  democrats: "democrat",
  democratic: "democrat",
  democratics: "democrat",
  dem: "democrat",
  dems: "democrat",
  republicans: "republican",
  gop: "republican",
  rep: "republican",
  governorship: "governor",
  gubernatorial: "governor",
  governors: "governor",
  senator: "senate",
  senators: "senate",
  btc: "bitcoin",
  xbt: "bitcoin",
  eth: "ethereum",
  ether: "ethereum",
  sol: "solana",
  doge: "dogecoin",
  hype: "hyperliquid",
  inflation: "cpi",
  jobless: "unemployment",
  temp: "temperature",
  shutdowns: "shutdown",
  finals: "finals",
  champions: "champion",
  championship: "champion",
  championships: "champion",
  winner: "champion",
  cut: "cut",
  cuts: "cut",
  decrease: "cut",
  decreases: "cut",
  lower: "cut",
  lowers: "cut",
  reduce: "cut",
  hike: "hike",
  hikes: "hike",
  increase: "hike",
  increases: "hike",
  raise: "hike",
  raises: "hike",
  ceasefire: "ceasefire",
  "cease-fire": "ceasefire",
  armistice: "ceasefire",
  mlb: "mlb",
  nba: "nba",
  nfl: "nfl",
  nhl: "nhl",
  elected: "win",
  wins: "win",
  won: "win",
  controls: "control",
  inaugurated: "win",
  sworn: "win",
};

const usStates =
  "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming";
const twoWordStates = ["new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota", "rhode island", "south carolina", "south dakota", "west virginia"];

const countries =
  "russia ukraine china taiwan iran israel gaza lebanon syria iraq india pakistan japan korea germany france italy spain canada mexico brazil argentina venezuela colombia chile peru turkey egypt saudi qatar uae uk usa poland hungary romania netherlands belgium sweden norway finland denmark australia nigeria kenya ethiopia sudan yemen afghanistan greenland cuba";

const cities = [
  "miami", "austin", "chicago", "denver", "houston", "dallas", "phoenix", "seattle", "boston", "atlanta", "philadelphia",
  "los angeles", "san francisco", "las vegas", "new orleans", "minneapolis", "detroit", "nashville", "portland",
  "san diego", "san antonio", "washington dc", "london", "paris", "tokyo", "berlin", "toronto", "moscow", "kyiv", "beijing",
];

const parties = ["democrat", "republican", "labour", "conservative", "libertarian", "green", "independent", "reform"];
const offices = ["governor", "senate", "house", "president", "presidency", "mayor", "prime_minister", "chancellor", "speaker", "attorney general"];
const assets = ["bitcoin", "ethereum", "solana", "xrp", "dogecoin", "hyperliquid", "cardano", "litecoin", "bnb", "gold", "silver", "oil", "nasdaq", "s&p 500", "tesla", "nvidia"];
const indicators = ["cpi", "unemployment", "gdp", "recession", "payrolls", "gas", "tsa", "high temperature", "low temperature", "rainfall", "snowfall", "hurricane", "box_office", "opening_weekend", "mortgage"];
const orgs = ["fed", "nber", "bls", "lmarena", "openai", "spacex", "nasa"];

/**
 * Competitions and the stage of each: winning a title implies winning the conference that leads
 * to it (a team's `finals` win ⊂ its `conference` win), so they nest rather than differ.
 */
export const competitionStage: Record<string, "title" | "conference"> = {
  "nba finals": "title",
  "nba champion": "title",
  nba: "title",
  "mlb finals": "title",
  mlb: "title",
  "nfl finals": "title",
  nfl: "title",
  "nhl finals": "title",
  nhl: "title",
  "premier league": "title",
  "champions league": "title",
  "west conference": "conference",
  "east conference": "conference",
  "al pennant": "conference",
  "nl pennant": "conference",
  afc: "conference",
  nfc: "conference",
};

/** The league a competition belongs to (conference stages inherit it from the text). */
export const competitionLeague: Record<string, string> = {
  "nba finals": "nba",
  "nba champion": "nba",
  nba: "nba",
  "mlb finals": "mlb",
  mlb: "mlb",
  "nfl finals": "nfl",
  nfl: "nfl",
  "nhl finals": "nhl",
  nhl: "nhl",
  "premier league": "premier league",
  "champions league": "champions league",
};

export interface PhraseEntry {
  canon: string;
  type: ConceptType | null;
}

/** Canonical phrase (space-joined tokens) -> its concept type. */
export const gazetteer = new Map<string, PhraseEntry>();

function add(list: Iterable<string>, type: ConceptType) {
  for (const phrase of list) gazetteer.set(phrase, { canon: phrase, type });
}
add(usStates.split(" "), "state");
add(twoWordStates, "state");
add(countries.split(" "), "country");
add(cities, "city");
add(parties, "party");
add(offices, "office");
add(assets, "asset");
add(indicators, "indicator");
add(orgs, "org");
add(Object.keys(competitionStage), "competition");
// "New York" and "Washington" are both a state and a city; the state reading wins unless "city" follows.
gazetteer.set("new york", { canon: "new york", type: "state" });

export const longestPhrase = Math.max(...[...gazetteer.keys()].map((k) => k.split(" ").length));

const compiledRewrites = phraseRewrites.map(([from, to]) => ({
  from,
  to,
  re: new RegExp(`(?<![a-z0-9])${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9])`, "g"),
}));

export function rewritePhrases(lower: string): string {
  let out = ` ${lower} `;
  for (const { from, to, re } of compiledRewrites) {
    if (out.includes(from)) out = out.replace(re, to);
  }
  return out.trim();
}

export function rewriteWord(word: string): string {
  return wordRewrites[word] ?? word;
}

export const monthIndex: Record<string, number> = {
  jan: 0, january: 0, feb: 1, february: 1, mar: 2, march: 2, apr: 3, april: 3, may: 4, jun: 5, june: 5,
  jul: 6, july: 6, aug: 7, august: 7, sep: 8, sept: 8, september: 8, oct: 9, october: 9, nov: 10, november: 10,
  dec: 11, december: 11,
};
