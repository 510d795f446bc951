import { describe, expect, it } from "vitest";
import { marketFeeAt, takerFee, type FeeSubject, type MarketFee } from "./fees";

const kalshi: FeeSubject = { venue: "kalshi", venueMarketId: "KXFED-26DEC-T4.00", category: "Economics" };
const kalshiIndex: FeeSubject = { venue: "kalshi", venueMarketId: "KXINX-26DEC31-B6000", category: "Finance" };
const polymarket = (category: FeeSubject["category"]): FeeSubject => ({ venue: "polymarket", venueMarketId: "0xabc", category });
const at = (iso: string) => Date.parse(iso);

function known(fee: MarketFee): Extract<MarketFee, { known: true }> {
  if (!fee.known) throw new Error(fee.reason);
  return fee;
}

describe("Kalshi's schedule (2025-07-01): 0.07 × C × P × (1 − P), rounded up to the next cent per order", () => {
  const fee = known(marketFeeAt(kalshi, at("2025-12-01T00:00:00Z")));
  // Worked examples of Kalshi's fee schedule and its announcement of the 2025-07-01 formula.
  it.each([
    { fills: [{ price: 0.5, size: 1 }], expected: 0.02, example: "1 contract at 50¢: 1.75¢ rounds up to 2¢" },
    { fills: [{ price: 0.5, size: 10 }], expected: 0.18, example: "10 contracts at 50¢: $0.175 rounds up to $0.18" },
    { fills: [{ price: 0.5, size: 100 }], expected: 1.75, example: "100 contracts at 50¢: exactly $1.75 (no binary-float round-up to $1.76)" },
    { fills: [{ price: 0.05, size: 100 }], expected: 0.34, example: "100 contracts at 5¢: $0.3325 -> $0.34" },
    { fills: [{ price: 0.25, size: 100 }], expected: 1.32, example: "100 contracts at 25¢: $1.3125 -> $1.32" },
    { fills: [{ price: 0.9, size: 100 }], expected: 0.63, example: "100 contracts at 90¢: $0.63" },
    { fills: [{ price: 0.5, size: 10 }, { price: 0.51, size: 10 }], expected: 0.35, example: "one order over two levels is rounded once ($0.34993 -> $0.35, not 18¢ + 18¢)" },
  ])("$example", ({ fills, expected }) => {
    expect(takerFee(fee, fills)).toBe(expected);
  });

  it("charges the S&P 500 and Nasdaq-100 series half the rate", () => {
    const index = known(marketFeeAt(kalshiIndex, at("2025-12-01T00:00:00Z")));
    expect(index.rule.takerRate).toBe("0.035");
    expect(takerFee(index, [{ price: 0.5, size: 100 }])).toBe(0.88);
  });

  it("says the fee is unknown before the first schedule Brier has, instead of assuming zero", () => {
    const before = marketFeeAt(kalshi, at("2025-06-30T23:59:59Z"));
    expect(before.known).toBe(false);
    if (!before.known) expect(before.reason).toMatch(/No kalshi fee schedule/);
    expect(marketFeeAt({ venue: "limitless", venueMarketId: "x", category: "Crypto" }, at("2026-11-01T00:00:00Z")).known).toBe(false);
  });
});

describe("Kalshi's rounding since 2026-03 (Fee Rounding): each fill's fee up to $0.0001, the balance floored to the cent, whole cents of the order's rounding refunded", () => {
  const fee = known(marketFeeAt(kalshi, at("2026-11-01T00:00:00Z")));
  it("is the version in force now", () => {
    expect(fee.schedule).toBe("kalshi-2026-03");
    expect(fee.rounding).toEqual({ decimals: 4, mode: "up", per: "fill_then_balance", balanceDecimals: 2 });
  });

  it.each([
    // The page's worked example: buy 3 contracts at $0.055 as three 1-lot matches. Each fill: fee
    // 0.07 × 0.055 × 0.945 = $0.00363825 -> $0.0037; balance −0.055 − 0.0037 = −0.0587 floored to
    // −0.06, a rounding fee of $0.0013; the accumulator reaches $0.0039, no refund: $0.0150.
    { fills: [{ price: 0.055, size: 1 }, { price: 0.055, size: 1 }, { price: 0.055, size: 1 }], expected: 0.015, example: "three 1-lot fills at $0.055: $0.0150" },
    // The same order as one fill: $0.01091475 -> $0.0110, balance −0.176 -> −0.18: $0.0150 (the accumulator's point: one fill's cost).
    { fills: [{ price: 0.055, size: 3 }], expected: 0.015, example: "one 3-lot fill at $0.055: the same $0.0150" },
    { fills: [{ price: 0.5, size: 1 }], expected: 0.02, example: "1 contract at 50¢: $0.0175 + $0.0025 rounding = 2¢" },
    { fills: [{ price: 0.5, size: 100 }], expected: 1.75, example: "100 contracts at 50¢: exactly $1.75" },
    // 100 one-lot fills at 50¢: each $0.0175 + $0.0025 rounding; every fourth fill the accumulator reaches a cent and it is refunded: $1.75.
    { fills: Array.from({ length: 100 }, () => ({ price: 0.5, size: 1 })), expected: 1.75, example: "100 one-lot fills at 50¢ converge to one fill's $1.75" },
    // Fractional contracts: 0.5 at 50¢: $0.00875 -> $0.0088, balance −0.2588 -> −0.26: $0.01.
    { fills: [{ price: 0.5, size: 0.5 }], expected: 0.01, example: "half a contract at 50¢: $0.01" },
  ])("$example", ({ fills, expected }) => {
    expect(takerFee(fee, fills, "buy")).toBe(expected);
  });

  it("floors a seller's balance the same way (a sale brings money in)", () => {
    // Sell 1 at $0.055: fee $0.0037, balance +0.055 − 0.0037 = 0.0513 floored to 0.05: rounding $0.0013.
    expect(takerFee(fee, [{ price: 0.055, size: 1 }], "sell")).toBe(0.005);
  });
});

describe("a market's own fee, read from its venue's fields, wins over the table", () => {
  it("prices with the version in force at the instant, the table only before the first", () => {
    const market = { ...kalshi, marketFees: [{ from: at("2026-06-01T00:00:00Z"), takerRate: "0.035", exponent: 1 as const, note: "the series' fee_type and fee_multiplier: quadratic × 0.5" }, { from: at("2026-09-01T00:00:00Z"), takerRate: "0", exponent: 1 as const, note: "the market's fee waiver" }] };
    expect(known(marketFeeAt(market, at("2026-05-01T00:00:00Z"))).rule.basis).toBe("schedule");
    const own = known(marketFeeAt(market, at("2026-07-01T00:00:00Z")));
    expect(own.rule).toMatchObject({ takerRate: "0.035", basis: "market" });
    expect(own.rounding.per).toBe("fill_then_balance");
    expect(takerFee(own, [{ price: 0.5, size: 100 }])).toBe(0.88);
    expect(takerFee(known(marketFeeAt(market, at("2026-10-01T00:00:00Z"))), [{ price: 0.5, size: 100 }])).toBe(0);
  });

  it("says unknown for a fee type Brier does not price, never zero", () => {
    const market = { ...kalshi, marketFees: [{ from: null, takerRate: null, exponent: 1 as const, note: "flat" }] };
    expect(marketFeeAt(market, at("2026-07-01T00:00:00Z")).known).toBe(false);
  });
});

describe("Polymarket's schedules, by the date in force", () => {
  it("charged no market before 2026-01-06", () => {
    const fee = known(marketFeeAt(polymarket("Crypto"), at("2025-12-31T12:00:00Z")));
    expect(fee.schedule).toBe("polymarket-fee-free");
    expect(fee.rule.basis).toBe("schedule");
    expect(takerFee(fee, [{ price: 0.5, size: 100 }])).toBe(0);
  });

  it("2026-01-06: short crypto markets at 0.25 × C × (P(1 − P))², to 4 decimals: 100 shares at $0.50 pay $1.5625 (the venue's '$1.56'); an upper bound for a crypto market", () => {
    const fee = known(marketFeeAt(polymarket("Crypto"), at("2026-02-01T00:00:00Z")));
    expect(fee.schedule).toBe("polymarket-2026-01-06");
    expect(fee.rule.basis).toBe("upper_bound");
    expect(takerFee(fee, [{ price: 0.5, size: 100 }])).toBe(1.5625);
    expect(known(marketFeeAt(polymarket("Politics"), at("2026-02-01T00:00:00Z"))).rule).toMatchObject({ takerRate: "0", basis: "schedule" });
  });

  it("2026-02-18: sports at 0.0175 × C × P(1 − P): 100 shares at $0.50 pay $0.4375", () => {
    const fee = known(marketFeeAt(polymarket("Sports"), at("2026-03-01T00:00:00Z")));
    expect(fee.schedule).toBe("polymarket-2026-02-18");
    expect(takerFee(fee, [{ price: 0.5, size: 100 }])).toBe(0.4375);
  });

  it.each([
    { category: "Crypto" as const, expected: 1.75 },
    { category: "Sports" as const, expected: 0.75 },
    { category: "Politics" as const, expected: 1 },
    { category: "Economics" as const, expected: 1.25 },
  ])("2026-03-30: $category at its category rate, 100 shares at $0.50 pay $expected", ({ category, expected }) => {
    const fee = known(marketFeeAt(polymarket(category), at("2026-11-01T00:00:00Z")));
    expect(fee.schedule).toBe("polymarket-2026-03-30");
    expect(takerFee(fee, [{ price: 0.5, size: 100 }])).toBe(expected);
  });

  it("2026-03-30: each fill is truncated to 5 decimals (37 shares at $0.37, politics: $0.344988 -> $0.34498)", () => {
    const fee = known(marketFeeAt(polymarket("Politics"), at("2026-11-01T00:00:00Z")));
    expect(takerFee(fee, [{ price: 0.37, size: 37 }])).toBe(0.34498);
  });
});
