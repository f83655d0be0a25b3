import { describe, expect, it } from "vitest";
import { CARD_META_KEY, findCards, isOpenableUrl } from "@/lib/domains/cards";

const card = {
  version: 1,
  title: "Deployment #482",
  subtitle: "main → production",
  body: "All **green**",
  bodyFormat: "markdown",
  fields: [{ label: "Commit", value: "a1b2c3d" }],
  actions: [
    { type: "copy", label: "Copy", value: "a1b2c3d" },
    { type: "open-link", label: "Logs", url: "https://logs.example.com/482" },
    { type: "call-tool", label: "Roll back", tool: "rollback", arguments: { id: 482 } },
  ],
};

describe("UI cards", () => {
  it("finds one card or an array of cards in _meta", () => {
    expect(findCards({ content: [], _meta: { [CARD_META_KEY]: card } })).toEqual([{ ok: true, card }]);
    expect(findCards({ _meta: { [CARD_META_KEY]: [card, card] } })).toHaveLength(2);
  });

  it("ignores results without cards", () => {
    expect(findCards({ content: [] })).toEqual([]);
    expect(findCards({ _meta: { other: 1 } })).toEqual([]);
    expect(findCards(null)).toEqual([]);
    expect(findCards({ structuredContent: { $card: 1, title: "x" } })).toEqual([]);
  });

  it("refuses invalid cards with reasons", () => {
    const [noTitle, badLink, unknownAction, extra] = findCards({
      _meta: {
        [CARD_META_KEY]: [
          { version: 1 },
          { version: 1, title: "t", actions: [{ type: "open-link", label: "x", url: "javascript:alert(1)" }] },
          { version: 1, title: "t", actions: [{ type: "shell", label: "x", command: "rm" }] },
          { version: 1, title: "t", html: "<b>x</b>" },
        ],
      },
    });
    for (const entry of [noTitle, badLink, unknownAction, extra]) expect(entry!.ok).toBe(false);
    expect(noTitle).toMatchObject({ errors: [expect.stringContaining("title")] });
  });

  it("refuses more than ten cards and wrong versions", () => {
    expect(findCards({ _meta: { [CARD_META_KEY]: Array(11).fill(card) } })[0]!.ok).toBe(false);
    expect(findCards({ _meta: { [CARD_META_KEY]: { ...card, version: 2 } } })[0]!.ok).toBe(false);
  });

  it("opens only http and https links", () => {
    expect(isOpenableUrl("https://example.com")).toBe(true);
    expect(isOpenableUrl("javascript:alert(1)")).toBe(false);
    expect(isOpenableUrl("data:text/html,x")).toBe(false);
  });
});
