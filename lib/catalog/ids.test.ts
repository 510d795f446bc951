import { describe, expect, it } from "vitest";
import { eventUuid, marketUuid, syntheticContractAddress, uuidV5 } from "./ids";

describe("catalog ids", () => {
  it("computes RFC 4122 v5 UUIDs (known vector for the DNS namespace)", async () => {
    // uuid v5("www.example.com", DNS namespace) = 2ed6657d-e927-568b-95e1-2665a8aea6a2
    const { createHash } = await import("node:crypto");
    const dns = Buffer.from("6ba7b8109dad11d180b400c04fd430c8", "hex");
    const bytes = createHash("sha1").update(dns).update("www.example.com").digest().subarray(0, 16);
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    expect(bytes.toString("hex")).toBe("2ed6657de927568b95e12665a8aea6a2");
    expect(uuidV5("x")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("is stable, venue-scoped, and keeps events and markets apart", () => {
    expect(marketUuid("polymarket", "681204")).toBe(marketUuid("polymarket", "681204"));
    expect(marketUuid("polymarket", "681204")).not.toBe(marketUuid("kalshi", "681204"));
    expect(marketUuid("myriad", "42")).not.toBe(eventUuid("myriad", "42"));
    // Pinned: changing the namespace or the name layout would change every public id.
    expect(marketUuid("polymarket", "681204")).toBe("9289dc9a-c5ee-5a37-bc6e-9fac6998ec75");
  });

  it("derives a synthetic 0x + 64 hex contract address", () => {
    expect(syntheticContractAddress("mock", "mock-m0")).toMatch(/^0x[0-9a-f]{64}$/);
    expect(syntheticContractAddress("mock", "mock-m0")).not.toBe(syntheticContractAddress("mock", "mock-m1"));
  });
});

describe("venue page URLs", () => {
  it("reads Polymarket and Kalshi page URLs, encoded or not, and nothing else", async () => {
    const { parseVenueUrl } = await import("./ids");
    expect(parseVenueUrl("https://polymarket.com/event/some-event/some-market?tid=3#x")).toEqual({ venue: "polymarket", eventSlug: "some-event", marketSlug: "some-market" });
    expect(parseVenueUrl(encodeURIComponent("https://polymarket.com/market/some-market"))).toEqual({ venue: "polymarket", eventSlug: undefined, marketSlug: "some-market" });
    expect(parseVenueUrl("https://kalshi.com/markets/kxseries/some-words/kxseries-27jan-b4")).toEqual({ venue: "kalshi", series: "KXSERIES", ticker: "KXSERIES-27JAN-B4" });
    expect(parseVenueUrl("https://kalshi.com/markets/kxseries")).toEqual({ venue: "kalshi", series: "KXSERIES", ticker: undefined });
    for (const other of ["some-slug", "https://example.com/event/x", "https://polymarket.com/profile/x", "https://kalshi.com/portfolio", "https%3A%2F%2F%zz"]) {
      expect(parseVenueUrl(other)).toBeUndefined();
    }
  });
});
