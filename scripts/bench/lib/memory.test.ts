import { describe, expect, it } from "vitest";
import { mappingGroup, processMemory, residentByMapping } from "./memory";

describe("residentByMapping (bench:passthrough --footprint)", () => {
  it("names each mapping's part", () => {
    expect(mappingGroup("")).toBe("anonymous");
    expect(mappingGroup("[heap]")).toBe("anonymous");
    expect(mappingGroup("[anon:v8]")).toBe("anonymous");
    expect(mappingGroup("[stack]")).toBe("other");
    expect(mappingGroup("/app/node_modules/chdb/build/Release/libchdb.so")).toBe("chDB library");
    expect(mappingGroup("/usr/local/bin/node")).toBe("node binary");
    expect(mappingGroup("/usr/lib/x86_64-linux-gnu/libc.so.6")).toBe("other libraries");
    expect(mappingGroup("/app/node_modules/@electric-sql/pglite/dist/pglite.data")).toBe("other files");
  });

  it.runIf(process.platform === "linux")("splits this process's resident set, adding up to its RSS", () => {
    const parts = residentByMapping(process.pid);
    const rss = processMemory(process.pid)?.rssMb;
    expect(parts).toBeDefined();
    expect(rss).toBeDefined();
    expect(parts?.["node binary"]).toBeGreaterThan(0);
    expect(parts?.anonymous).toBeGreaterThan(0);
    const total = Object.values(parts ?? {}).reduce((sum, mb) => sum + mb, 0);
    // Read a moment apart: within 10 % of VmRSS.
    expect(Math.abs(total - (rss ?? 0))).toBeLessThan((rss ?? 0) * 0.1);
  });
});
