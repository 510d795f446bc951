import { describe, expect, it } from "vitest";
import { binOf, LOG_LOSS_EPSILON, logLossOf, reliabilityBins, scoreForecasts, wilsonInterval } from "./score";

describe("calibration scores", () => {
  it("Brier score and log loss of a few forecasts, by hand", () => {
    const { scores } = scoreForecasts(
      [
        { forecast: 0.7, outcome: 1 },
        { forecast: 0.2, outcome: 0 },
        { forecast: 0.9, outcome: 0 },
      ],
      10,
    );
    expect(scores.count).toBe(3);
    expect(scores.brier).toBeCloseTo((0.09 + 0.04 + 0.81) / 3, 12);
    expect(scores.logLoss).toBeCloseTo(-(Math.log(0.7) + Math.log(0.8) + Math.log(0.1)) / 3, 12);
    expect(scores.meanForecast).toBeCloseTo(0.6, 12);
    expect(scores.observedFrequency).toBeCloseTo(1 / 3, 12);
  });

  it("clips log loss at the finest tick, so a certain wrong forecast costs ln(1000), not infinity", () => {
    expect(LOG_LOSS_EPSILON).toBe(0.001);
    expect(logLossOf(0, 1)).toBeCloseTo(Math.log(1000), 12);
    expect(logLossOf(1, 0)).toBeCloseTo(Math.log(1000), 12);
    expect(logLossOf(1, 1)).toBeCloseTo(-Math.log(0.999), 12);
    // inside the clip nothing changes
    expect(logLossOf(0.001, 0)).toBeCloseTo(-Math.log(0.999), 12);
  });

  it("scores a 50-50 split as an outcome of one half", () => {
    const { scores } = scoreForecasts([{ forecast: 0.5, outcome: 0.5 }], 10);
    expect(scores.brier).toBe(0);
    expect(scores.logLoss).toBeCloseTo(Math.log(2), 12);
  });

  it.each([
    [0, 10, 0],
    [0.0999, 10, 0],
    [0.1, 10, 1],
    [0.55, 10, 5],
    [0.999, 10, 9],
    [1, 10, 9],
    [0.5, 2, 1],
    [0.49, 2, 0],
  ])("forecast %s with %s bins falls in bin %s", (forecast, bins, bin) => {
    expect(binOf(forecast, bins)).toBe(bin);
  });

  it.each([
    // published values of the 95 % Wilson interval (Newcombe 1998, table I)
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("Wilson interval of %s/%s is [%s, %s]", (successes, n, low, high) => {
    const interval = wilsonInterval(successes, n);
    expect(interval?.low).toBeCloseTo(low, 4);
    expect(interval?.high).toBeCloseTo(high, 4);
  });

  it("has no interval for an empty bin and keeps every bin in the answer", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    const bins = reliabilityBins(new Map([[2, { count: 2, sumForecast: 0.5, sumOutcome: 1, sumSquaredError: 0.3, sumLogLoss: 1 }]]), 4);
    expect(bins).toHaveLength(4);
    expect(bins[0]).toMatchObject({ bin: 0, lower: 0, upper: 0.25, count: 0, meanForecast: null, observedFrequency: null, wilsonLow: null });
    expect(bins[2]).toMatchObject({ bin: 2, lower: 0.5, upper: 0.75, count: 2, meanForecast: 0.25, observedFrequency: 0.5 });
    expect(bins[2]?.wilsonLow).toBeGreaterThan(0);
    expect(bins[2]?.wilsonHigh).toBeLessThan(1);
  });

  it("a perfectly calibrated set has observed frequency equal to the forecast in every bin", () => {
    const forecasts = [];
    for (let i = 0; i < 10; i += 1) for (let j = 0; j < 10; j += 1) forecasts.push({ forecast: (i + 0.5) / 10, outcome: j < i + 0.5 ? 1 : 0 });
    const { bins } = scoreForecasts(forecasts, 10);
    for (const bin of bins) expect(Math.abs((bin.observedFrequency ?? 0) - (bin.meanForecast ?? 0))).toBeLessThanOrEqual(0.05 + 1e-12);
  });
});
