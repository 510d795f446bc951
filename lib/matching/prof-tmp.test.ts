import { it } from "vitest";
import { extractFeatures } from "./extract";
it("prof", () => {
  const texts = Array.from({ length: 2000 }, (_, i) => `Will the highest temperature in Miami be ${80 + (i % 10)}-${81 + (i % 10)}°F on July ${1 + (i % 28)}?`);
  const t = performance.now();
  for (const [i, x] of texts.entries()) extractFeatures({ id: `m${i}`, venue: "polymarket", eventId: "e", category: "Weather", title: `Highest temperature in Miami on July ${1 + (i % 28)}? - ${x}`, eventTitle: `Highest temperature in Miami on July ${1 + (i % 28)}?`, yesLabel: `${80 + (i % 10)}-${81 + (i % 10)}°F`, description: `Resolves to the range containing the highest temperature in Miami on July ${1 + (i % 28)}, 2026.`, resolutionDate: new Date("2026-07-30T00:00:00Z") });
  console.log("extract per market ms", (performance.now() - t) / texts.length);
});
