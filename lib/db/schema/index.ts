export * from "./accounts";
export * from "./api-keys";
export * from "./rate-limits";
export * from "./usage";
export * from "./events";
export * from "./ingest-leases";
export * from "./ingest-runs";
export * from "./markets";
