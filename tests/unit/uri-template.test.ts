import { describe, expect, it } from "vitest";
import { expandTemplate, optionalVariables, templateVariables } from "@/components/servers/uri-template";

describe("RFC 6570 URI templates", () => {
  it("lists variables in order, without operators, prefixes or explode markers", () => {
    expect(templateVariables("demo://resource/dynamic/text/{resourceId}")).toEqual(["resourceId"]);
    expect(templateVariables("x://{+path}/{name:3}{?q,lang}{&list*}{#frag}")).toEqual(["path", "name", "q", "lang", "list", "frag"]);
  });

  it("expands every operator with the right encoding", () => {
    expect(expandTemplate("demo://resource/dynamic/text/{resourceId}", { resourceId: "a b/c" })).toBe("demo://resource/dynamic/text/a%20b%2Fc");
    expect(expandTemplate("file://{+path}", { path: "/etc/a b" })).toBe("file:///etc/a%20b");
    expect(expandTemplate("x://h{/seg}{.ext}{;p}{?q,lang}{#f}", { seg: "s", ext: "md", p: "1", q: "é", lang: "en", f: "top" })).toBe(
      "x://h/s.md;p=1?q=%C3%A9&lang=en#top",
    );
    expect(expandTemplate("x://{name:3}", { name: "abcdef" })).toBe("x://abc");
  });

  it("drops empty fields and reports malformed templates", () => {
    expect(expandTemplate("x://h{?q,lang}", { q: "", lang: "en" })).toBe("x://h?lang=en");
    expect(optionalVariables("x://{id}{?q,id}")).toEqual(["q"]);
    expect(expandTemplate("x://{broken", {})).toBe("x://{broken");
  });
});
