export * from "./accounts";
export * from "./api-keys";
export * from "./rate-limits";
export * from "./usage";
