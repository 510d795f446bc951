import { describe, expect, it } from "vitest";
import { FeeFieldsMissing } from "../fee-fields";
import { kalshiFeeVersions, parseEventFeeChanges, parseFeeWaiver, parseSeriesFee, parseSeriesFeeChanges, takerRateOf } from "./fees";

const at = (iso: string) => Date.parse(iso);
const NOW = at("2026-11-20T00:00:00Z");

describe("Kalshi's fee fields, in the venue's wire shapes", () => {
  it("reads the series' fee_type and fee_multiplier (GET /series/{ticker})", () => {
    expect(parseSeriesFee({ series: { ticker: "KXFED", fee_type: "quadratic", fee_multiplier: 1 } })).toEqual({ feeType: "quadratic", multiplier: "1" });
    expect(() => parseSeriesFee({ series: { ticker: "KXFED" } })).toThrow(FeeFieldsMissing);
  });

  it("reads the series' fee history (GET /series/fee_changes), oldest first, that series only", () => {
    const body = {
      series_fee_change_arr: [
        { id: "b", series_ticker: "KXINX", fee_type: "quadratic", fee_multiplier: 0.5, scheduled_ts: "2026-05-01T00:00:00Z" },
        { id: "a", series_ticker: "KXINX", fee_type: "quadratic", fee_multiplier: 1, scheduled_ts: "2026-01-01T00:00:00Z" },
        { id: "c", series_ticker: "KXFED", fee_type: "flat", fee_multiplier: 1, scheduled_ts: "2026-02-01T00:00:00Z" },
      ],
    };
    expect(parseSeriesFeeChanges(body, "KXINX")).toEqual([
      { at: at("2026-01-01T00:00:00Z"), feeType: "quadratic", multiplier: "1" },
      { at: at("2026-05-01T00:00:00Z"), feeType: "quadratic", multiplier: "0.5" },
    ]);
  });

  it("reads the event's overrides (GET /events/fee_changes), a null override clearing it, and the page cursor", () => {
    const body = {
      event_fee_changes: [
        { event_ticker: "KXINX-26DEC31", fee_type_override: "quadratic", fee_multiplier_override: 0.25, scheduled_ts: "2026-08-01T00:00:00Z" },
        { event_ticker: "KXINX-26DEC31", fee_type_override: null, fee_multiplier_override: null, scheduled_ts: "2026-10-01T00:00:00Z" },
      ],
      cursor: "next",
    };
    expect(parseEventFeeChanges(body, "KXINX-26DEC31")).toEqual({
      changes: [
        { at: at("2026-08-01T00:00:00Z"), feeType: "quadratic", multiplier: "0.25" },
        { at: at("2026-10-01T00:00:00Z"), feeType: null, multiplier: null },
      ],
      cursor: "next",
    });
  });

  it("reads a market's fee_waiver_expiration_time", () => {
    expect(parseFeeWaiver({ market: { ticker: "T", fee_waiver_expiration_time: "2026-03-01T00:00:00Z" } })).toBe(at("2026-03-01T00:00:00Z"));
    expect(parseFeeWaiver({ market: { ticker: "T", fee_waiver_expiration_time: null } })).toBeNull();
  });

  it("prices quadratic types at 0.07 × fee_multiplier, exactly, and no other type", () => {
    expect(takerRateOf("quadratic", "1")).toBe("0.07");
    expect(takerRateOf("quadratic_with_maker_fees", "0.5")).toBe("0.035");
    expect(takerRateOf("quadratic", "0.25")).toBe("0.0175");
    expect(takerRateOf("quadratic", "0")).toBe("0");
    expect(takerRateOf("flat", "1")).toBeNull();
  });
});

describe("a market's dated fee versions: series history, event overrides on top, the waiver first", () => {
  const series = { feeType: "quadratic", multiplier: "0.5" };
  const seriesChanges = [
    { at: at("2026-01-01T00:00:00Z"), feeType: "quadratic", multiplier: "1" },
    { at: at("2026-05-01T00:00:00Z"), feeType: "quadratic", multiplier: "0.5" },
  ];
  const eventChanges = [
    { at: at("2026-08-01T00:00:00Z"), feeType: "quadratic", multiplier: "0.25" },
    { at: at("2026-10-01T00:00:00Z"), feeType: null, multiplier: null },
  ];

  it("orders every change and says what set it", () => {
    expect(kalshiFeeVersions(series, seriesChanges, eventChanges, at("2026-02-01T00:00:00Z"), NOW).map((v) => [new Date(v.from).toISOString().slice(0, 10), v.source, v.takerRate])).toEqual([
      ["2026-01-01", "fee_waiver", "0"],
      ["2026-02-01", "series_fee_change", "0.07"],
      ["2026-05-01", "series_fee_change", "0.035"],
      ["2026-08-01", "event_override", "0.0175"],
      ["2026-10-01", "series_fee_change", "0.035"],
    ]);
  });

  it("holds the series' current fee for all time when no change of it has taken effect, and a scheduled change from its date", () => {
    const versions = kalshiFeeVersions(series, [{ at: at("2027-01-01T00:00:00Z"), feeType: "quadratic", multiplier: "1" }], [], null, NOW);
    expect(versions.map((v) => [v.from, v.takerRate])).toEqual([
      [Number.NEGATIVE_INFINITY, "0.035"],
      [at("2027-01-01T00:00:00Z"), "0.07"],
    ]);
  });
});
