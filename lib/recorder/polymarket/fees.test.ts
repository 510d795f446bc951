import { describe, expect, it } from "vitest";
import { FeeFieldsMissing } from "../fee-fields";
import { parseGammaMarketFee } from "./fees";

/** Gamma market objects in the venue's wire shape (only the fields the reader uses, plus neighbours). */
const market = (fields: Record<string, unknown>) => ({ id: "12", conditionId: "0xc0", question: "Q?", createdAt: "2026-07-12T09:00:00.000Z", active: true, ...fields });

describe("Polymarket's fee of a market, from its Gamma fields", () => {
  it("reads feeSchedule (rate, exponent, takerOnly, rebateRate) where fees are enabled, holding from the market's creation", () => {
    expect(parseGammaMarketFee(market({ feesEnabled: true, feeSchedule: { rate: 0.05, exponent: 1, takerOnly: true, rebateRate: 0.25 } }))).toEqual({
      conditionId: "0xc0",
      createdAt: Date.parse("2026-07-12T09:00:00.000Z"),
      feesEnabled: true,
      rate: "0.05",
      exponent: 1,
      takerOnly: true,
      rebateRate: "0.25",
    });
    // Sports markets at 0.03 and 0.05 trade side by side: each keeps its own.
    expect(parseGammaMarketFee(market({ feesEnabled: true, feeSchedule: { rate: "0.030", exponent: "1", takerOnly: true } })).rate).toBe("0.03");
    expect(parseGammaMarketFee(market({ feesEnabled: true, feeSchedule: { rate: 0.25, exponent: 2, takerOnly: true, rebateRate: 0.2 } })).exponent).toBe(2);
  });

  it("is zero where feesEnabled is false (a fee-free market), whatever else it carries", () => {
    expect(parseGammaMarketFee(market({ feesEnabled: false, feeSchedule: null }))).toMatchObject({ feesEnabled: false, rate: "0" });
  });

  it.each([
    ["no feesEnabled", market({})],
    ["fees enabled without a feeSchedule", market({ feesEnabled: true, feeSchedule: null })],
    ["an exponent other than 1 or 2", market({ feesEnabled: true, feeSchedule: { rate: 0.05, exponent: 3 } })],
    ["a negative rate", market({ feesEnabled: true, feeSchedule: { rate: -0.05, exponent: 1 } })],
    ["not a market", { question: "no condition id" }],
  ])("leaves the market to the schedule table's fallback on %s", (_name, body) => {
    expect(() => parseGammaMarketFee(body)).toThrow(FeeFieldsMissing);
  });
});
