/**
 * The catalog's fixed category set. Every event and market carries exactly one; `category=`
 * filters match it exactly. Venue categories and tags map onto it through `categoryAliases`.
 */
export const categories = [
  "Politics",
  "Sports",
  "Crypto",
  "Economics",
  "Finance",
  "Science & Tech",
  "Culture",
  "World",
  "Weather",
  "Other",
] as const;

export type Category = (typeof categories)[number];

/**
 * Venue category or tag (lower-cased) -> category. Covers Polymarket's categories and common tags,
 * Kalshi's series categories, Limitless/Myriad/Probable/Opinion/Baozi categories and the mock venue.
 */
const categoryAliases: Record<string, Category> = {
  politics: "Politics",
  elections: "Politics",
  election: "Politics",
  "us politics": "Politics",
  "us-current-affairs": "Politics",
  "us current affairs": "Politics",
  trump: "Politics",
  congress: "Politics",
  "global elections": "Politics",
  government: "Politics",
  sports: "Sports",
  sport: "Sports",
  soccer: "Sports",
  football: "Sports",
  nfl: "Sports",
  nba: "Sports",
  mlb: "Sports",
  nhl: "Sports",
  basketball: "Sports",
  tennis: "Sports",
  golf: "Sports",
  esports: "Sports",
  "formula 1": "Sports",
  f1: "Sports",
  ufc: "Sports",
  boxing: "Sports",
  cricket: "Sports",
  crypto: "Crypto",
  cryptocurrency: "Crypto",
  bitcoin: "Crypto",
  ethereum: "Crypto",
  solana: "Crypto",
  "crypto prices": "Crypto",
  defi: "Crypto",
  economics: "Economics",
  economy: "Economics",
  "economic policy": "Economics",
  fed: "Economics",
  "fed rates": "Economics",
  "interest rates": "Economics",
  inflation: "Economics",
  jobs: "Economics",
  gdp: "Economics",
  finance: "Finance",
  financials: "Finance",
  business: "Finance",
  companies: "Finance",
  stocks: "Finance",
  equities: "Finance",
  commodities: "Finance",
  "earnings": "Finance",
  ipos: "Finance",
  science: "Science & Tech",
  tech: "Science & Tech",
  technology: "Science & Tech",
  "science and technology": "Science & Tech",
  "science & tech": "Science & Tech",
  ai: "Science & Tech",
  space: "Science & Tech",
  health: "Science & Tech",
  culture: "Culture",
  "pop culture": "Culture",
  entertainment: "Culture",
  movies: "Culture",
  music: "Culture",
  awards: "Culture",
  celebrities: "Culture",
  mentions: "Culture",
  "social media": "Culture",
  world: "World",
  geopolitics: "World",
  "world affairs": "World",
  international: "World",
  "middle east": "World",
  ukraine: "World",
  china: "World",
  weather: "Weather",
  climate: "Weather",
  "climate and weather": "Weather",
  temperature: "Weather",
  hurricanes: "Weather",
};

/** True when `value` is one of the fixed categories (exactly, case included). */
export function isCategory(value: string): value is Category {
  return (categories as readonly string[]).includes(value);
}

/**
 * The catalog category of a venue record: the venue's category first, then its tags in order;
 * the first that maps wins, otherwise `Other`.
 */
export function normalizeCategory(venueCategory: string | undefined | null, tags: readonly string[] = []): Category {
  for (const candidate of [venueCategory, ...tags]) {
    if (typeof candidate !== "string") continue;
    const key = candidate.trim().toLowerCase();
    if (key === "") continue;
    const direct = categoryAliases[key];
    if (direct !== undefined) return direct;
  }
  return "Other";
}
