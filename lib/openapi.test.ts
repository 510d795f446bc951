import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, type OpenApiSectionBuilder } from "./openapi";

const section =
  (path: string, schema?: string): OpenApiSectionBuilder =>
  () => ({ paths: { [path]: { get: { operationId: path } } }, schemas: schema === undefined ? undefined : { [schema]: { type: "object" } } });

describe("OpenAPI assembly", () => {
  it("lists the sections' paths and schemas in order, with the shared Error schema last", () => {
    const doc = buildOpenApiDocument([section("/v0/b", "B"), section("/v0/a", "A")]) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(["/v0/b", "/v0/a"]);
    expect(Object.keys(doc.components.schemas)).toEqual(["B", "A", "Error"]);
  });

  it.each([
    ["a path", [section("/v0/a"), section("/v0/a")], /path \/v0\/a is described twice/],
    ["a schema", [section("/v0/a", "A"), section("/v0/b", "A")], /schema A is described twice/],
    ["the shared Error schema", [section("/v0/a", "Error")], /schema Error is described twice/],
  ])("refuses %s claimed twice", (_what, sections, message) => {
    expect(() => buildOpenApiDocument(sections)).toThrow(message);
  });
});
