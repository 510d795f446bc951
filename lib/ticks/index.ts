export { closeTickStores, getTickStores, openTickStores, readerSettings, requestTickReader, tickStoresOpened } from "./client";
export { bind, tickRows, tickRowStream, tickStream, type Bind, type Binds, type TickReader } from "./query";
export type { TickStores, TickTarget } from "./client";
