import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import nlp from "compromise";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { isCommonNoun } from "@/lib/matching/wordnet";

/**
 * No fixture text in the engine: the labelled sets measure the matcher, so nothing of theirs may
 * be written into it. Fails when a string literal of lib/matching (code and data files) of three
 * or more words appears verbatim in a title of any test fixture; when a literal or a comment names
 * a person, place or team that a fixture title names; when a comment holds three words in a row
 * that a fixture title holds with a name among them; or when a literal or a comment holds a
 * two-word name (two capitalised words) that a fixture title holds.
 */

const root = path.resolve(__dirname, "..");
const engineDir = path.join(root, "lib/matching");
const fixturesDir = path.join(root, "test/fixtures");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

/** Lower case, letters and digits only, single spaces: how a phrase is compared. */
const norm = (s: string) =>
  ` ${s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;

const titleKeys = new Set(["title", "question", "groupItemTitle", "subtitle", "sub_title", "yes_sub_title", "no_sub_title", "market_title", "eventTitle"]);

function collectTitles(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectTitles(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "string" && titleKeys.has(k)) out.add(v);
      else collectTitles(v, out);
    }
  }
}

function fixtureTitles(): string[] {
  const out = new Set<string>();
  for (const file of files(fixturesDir)) {
    if (file.endsWith(".json")) collectTitles(JSON.parse(readFileSync(file, "utf8")), out);
    else if (file.endsWith(".jsonl")) for (const line of readFileSync(file, "utf8").split("\n")) if (line.trim() !== "") collectTitles(JSON.parse(line), out);
  }
  return [...out];
}

/**
 * People, places and teams the titles name (a leading "Will" is the question's verb, not a name):
 * compromise's people and places, and its one-word organisations not written in capitals (a team's
 * name). Institutions, leagues and offices ("NBA", "... League", "... Reserve") are domain
 * vocabulary the engine may know; the three-word rule still keeps their titles out.
 */
function namesIn(titles: string[]): string[] {
  const names = new Set<string>();
  for (const title of titles) {
    const doc = nlp(title.replace(/^\s*Will\b/, "will").replace(/\s-\s/g, ". "));
    // A one-word organisation in capitals is an institution or a league ("NBA"), not a team.
    const organisations = (doc.organizations().out("array") as string[]).filter(
      (o) => norm(o).trim().split(" ").filter((w) => w !== "will").length === 1 && !/^\p{Lu}{2,}\W*$/u.test(o.replace(/^Will\s+/, "")),
    );
    const found = [...doc.people().out("array"), ...doc.places().out("array"), ...organisations] as string[];
    for (const raw of found) {
      const words = norm(raw.replace(/['’]s\b/g, "")).trim().split(" ").filter((w) => w !== "" && w !== "will" && w !== "the");
      if (words.length === 0) continue;
      const name = words.join(" ");
      // One word is a name unless compromise's lexicon knows it as an ordinary word ("City", "Party").
      const known = lexicon[name];
      if (words.length === 1 && (name.length < 3 || (known !== undefined && !nameTags.has(known)))) continue;
      // A word compromise does not know that WordNet writes as a common noun ("airport") is no name.
      if (words.length === 1 && known === undefined && isCommonNoun(name)) continue;
      if (domainTerms.has(name)) continue;
      names.add(name);
    }
  }
  return [...names];
}

const lexicon = (nlp as unknown as { model: () => { one: { lexicon: Record<string, string | undefined> } } }).model().one.lexicon;
const nameTags = new Set(["SportsTeam", "Country", "City", "Region", "Place", "Person", "FirstName", "LastName", "MaleName", "FemaleName", "Organization", "Company", "ProperNoun"]);

/**
 * Domain vocabulary the engine may know by name (leagues' championships, assets, measures,
 * agencies, offices, parties: data/vocabulary.json, each section with its source). They are not
 * people, places or teams even when compromise reads them as names ("Stanley Cup"); the
 * three-word rule still keeps every fixture phrase out of that file.
 */
const vocabulary = JSON.parse(readFileSync(path.join(engineDir, "data/vocabulary.json"), "utf8")) as Record<string, { entries?: unknown }>;
const typedTerms = ["competitions", "assets", "indicators", "orgs", "offices", "parties"].flatMap((section) => {
  const entries = vocabulary[section]?.entries;
  const list = Array.isArray(entries) ? entries : Object.keys((entries ?? {}) as Record<string, unknown>);
  return list.map((e) => norm(String(e)).trim());
});
// A phrase the vocabulary rewrites to one of those terms is another spelling of it.
const spellings = Object.entries((vocabulary.phrases?.entries ?? {}) as Record<string, string>)
  .filter(([, canon]) => typedTerms.includes(norm(canon).trim()))
  .map(([phrase]) => norm(phrase).trim());
const domainTerms = new Set([...typedTerms, ...spellings]);


interface Literal {
  file: string;
  text: string;
  /** A comment rather than a string literal. */
  comment?: boolean;
}

/** Runs of `n` words of a text, normalised. */
function runs(text: string, n: number): string[] {
  const words = norm(text).trim().split(" ").filter((w) => w !== "");
  const out: string[] = [];
  for (let i = 0; i + n <= words.length; i += 1) out.push(` ${words.slice(i, i + n).join(" ")} `);
  return out;
}

/** Pairs of capitalised words in a row ("Springfield Owls"): a two-word name. */
function capitalisedPairs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(\p{Lu}[\p{L}'’.-]+)\s+(\p{Lu}[\p{L}'’.-]+)\b/gu)) out.push(norm(`${m[1]} ${m[2]}`));
  return out;
}

function literalsOf(file: string): Literal[] {
  const rel = path.relative(root, file);
  const text = readFileSync(file, "utf8");
  const out: Literal[] = [];
  if (file.endsWith(".json")) {
    const walk = (v: unknown): void => {
      if (typeof v === "string") out.push({ file: rel, text: v });
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === "object")
        for (const [k, x] of Object.entries(v)) {
          out.push({ file: rel, text: k });
          walk(x);
        }
    };
    walk(JSON.parse(text));
    return out;
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  // Comments by position: a comment leads one node and trails another, and is read once.
  const commentTexts = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    for (const range of [...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []), ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? [])]) {
      commentTexts.set(`${range.pos}`, text.slice(range.pos, range.end));
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      out.push({ file: rel, text: node.text });
    } else if (ts.isRegularExpressionLiteral(node)) {
      // A pattern's alternatives are its literals: "(first|second) quarter" holds "first", "second".
      for (const part of node.text.replace(/\\[bsdwBSDW]|[()[\]?*+^$.{}\\/]|\|/g, "|").split("|")) out.push({ file: rel, text: part });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const comment of commentTexts.values()) out.push({ file: rel, text: comment.replace(/^\/\*\*?|\*\/$|^\s*\*\s?|^\/\/\s?/gm, " "), comment: true });
  return out;
}

describe("no fixture text in the matching engine", () => {
  const titles = fixtureTitles();
  const normTitles = titles.map(norm);
  const names = namesIn(titles);
  const engineFiles = files(engineDir).filter((f) => (f.endsWith(".ts") && !f.endsWith(".test.ts")) || f.endsWith(".json"));
  const literals = engineFiles.flatMap(literalsOf);

  it("reads the fixtures and the engine it checks", () => {
    expect(titles.length).toBeGreaterThan(900);
    expect(names.length).toBeGreaterThan(50);
    expect(engineFiles.some((f) => f.endsWith("extract.ts"))).toBe(true);
    expect(literals.length).toBeGreaterThan(100);
  });

  it("has no literal of three or more words that a fixture title contains", () => {
    const found = literals.filter((l) => !l.comment).filter((l) => {
      const n = norm(l.text);
      return n.trim().split(" ").length >= 3 && normTitles.some((t) => t.includes(n));
    });
    expect(found.map((l) => `${l.file}: ${l.text}`)).toEqual([]);
  });

  it("reads the comments too", () => {
    expect(literals.filter((l) => l.comment).length).toBeGreaterThan(100);
  });

  it("has no comment quoting three words in a row of a fixture title with a name among them", () => {
    const found: string[] = [];
    for (const l of literals.filter((x) => x.comment)) {
      for (const run of runs(l.text, 3)) {
        if (!normTitles.some((t) => t.includes(run))) continue;
        // Three ordinary words ("win the election") are English, not a quotation; a name makes it one.
        if (names.some((name) => run.includes(` ${name} `) || ` ${name} `.includes(run))) found.push(`${l.file}: ...${run.trim()}...`);
      }
    }
    expect([...new Set(found)]).toEqual([]);
  });

  it("has no two-word name in a literal or comment that a fixture title holds", () => {
    const titleText = ` ${normTitles.join(" | ")} `;
    const found: string[] = [];
    for (const l of literals) for (const pair of capitalisedPairs(l.text)) if (!domainTerms.has(pair.trim()) && titleText.includes(pair)) found.push(`${l.file}: ${pair.trim()}`);
    expect([...new Set(found)]).toEqual([]);
  });

  it("names no person, place or team that a fixture title names", () => {
    const patterns = names.map((name) => ({ name, padded: ` ${name} ` }));
    const found: string[] = [];
    for (const l of literals) {
      const n = norm(l.text);
      for (const p of patterns) if (n.includes(p.padded)) found.push(`${l.file}: "${l.text}" names ${p.name}`);
    }
    expect([...new Set(found)]).toEqual([]);
  });
});
