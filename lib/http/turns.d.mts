import type { ServerResponse } from "node:http";

export interface TurnQueue {
  push(job: () => void): boolean;
  stats(): { waiting: number; refused: number };
}
export declare function createTurnQueue(options: { limit: number }): TurnQueue;
export declare function refuseAtCapacity(surface: "v0" | "api", res: ServerResponse): void;
