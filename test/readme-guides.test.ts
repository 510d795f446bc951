import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README names every guide in docs/ (issue 36: a newcomer finds each surface from the README),
// and every docs/ link in it points at a file that exists.
const root = path.resolve(__dirname, "..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]));

describe("README guides", () => {
  it("links every guide in docs/", () => {
    const guides = readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`);
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it("links no guide that is not there", () => {
    expect([...linked].filter((link) => link !== undefined && !readdirSync(path.join(root, path.dirname(link))).includes(path.basename(link)))).toEqual([]);
  });
});
