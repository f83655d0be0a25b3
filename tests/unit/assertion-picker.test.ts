import { describe, expect, it } from "vitest";
import { fromDraft, newDraft, pickedValue, toDraft } from "@/components/collections/assertion-draft";
import { childPointer, searchJson } from "@/components/ui/json-paths";
import { fillVariables } from "@/lib/domains/collections";
import { jsonPointer } from "@/lib/domains/collections/variables";

const result = { content: [{ type: "text", text: "2 + 3 = 5" }], structuredContent: { sum: 5, "a/b": "3", "x~y": null } };

describe("picking an assertion from a recorded result", () => {
  it("fills a pointer the run's evaluator finds, and the value it equals, strings that read as JSON kept as strings", () => {
    for (const [key, value] of Object.entries(result.structuredContent)) {
      const pointer = childPointer("/structuredContent", key);
      const draft = { ...newDraft("json"), ...pickedValue(pointer, value) };
      const checked = fromDraft(draft);
      expect(checked).toEqual({ assertion: { kind: "json", path: pointer, equals: value } });
      expect(jsonPointer(result, pointer)).toEqual({ found: true, value });
    }
    expect(pickedValue(childPointer(childPointer("/content", 0), "text"), "2 + 3 = 5")).toEqual({ path: "/content/0/text", op: "equals", value: "2 + 3 = 5" });
    // An existing assertion on a numeric-looking string reads back the same.
    expect(fromDraft(toDraft({ kind: "json", path: "/a", equals: "3" }))).toEqual({ assertion: { kind: "json", path: "/a", equals: "3" } });
  });

  it("keeps the tree's search pointers as before", () => {
    expect([...searchJson(result, "sum").matches]).toEqual(["/structuredContent/sum"]);
    expect([...searchJson(result, "x~y").matches]).toEqual(["/structuredContent/x~0y"]);
  });
});

describe("labels with variables", () => {
  it("fills known names, keeps unknown ones and step references as written", () => {
    expect(fillVariables("Weather in {{city}} ({{ days }} days) {{nobody}} {{steps.1#/id}}", { city: "Lyon", days: 3 })).toBe("Weather in Lyon (3 days) {{nobody}} {{steps.1#/id}}");
    expect(fillVariables("{{filters}}", { filters: { a: 1 } })).toBe('{"a":1}');
    expect(fillVariables("{{toString}}", {})).toBe("{{toString}}");
  });
});
