export interface HeapSettled {
  /** Whether a memory-reducing full GC ran before maxMs. */
  settled: boolean;
  beforeMb: number;
  afterMb: number;
  ms: number;
}
export declare const HEAP_SETTLE_TASK: string;
export declare const HEAP_SETTLE_MAX_MS: number;
export declare function settleHeap(options?: { maxMs?: number }): Promise<HeapSettled>;
export declare function settleHeapAfterStartup(): Promise<HeapSettled>;
