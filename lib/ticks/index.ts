export { closeTickStores, getTickStores, openTickStores, readerSettings } from "./client";
export type { TickStores, TickTarget } from "./client";
