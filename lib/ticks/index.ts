export { closeTickStores, getTickStores, openTickStores, readerSettings, tickStoresOpened } from "./client";
export type { TickStores, TickTarget } from "./client";
