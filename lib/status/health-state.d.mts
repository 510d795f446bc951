export declare const HEALTH_STATE: { loopBeatAt: 0; checkedAt: 1; postgres: 2; clickhouse: 3 };
export declare const HEALTH_STATE_SLOTS: number;
export declare const LOOP_STALE_MS: number;
export declare const PROBE_STALE_MS: number;
export declare function sharedHealthState(): Float64Array | undefined;
export declare function createHealthState(): Float64Array;
export declare function dropHealthState(state: Float64Array): void;
