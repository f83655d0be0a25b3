import type { MockMatch } from "@/lib/domains/mocks";

/** A mock's settings as its form holds them: the ignored pointers as typed, one a line. */
export interface MockSettingsDraft {
  match: MockMatch;
  ignore: string;
  latency: boolean;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The problem with a mock's name (the last segment of its endpoint's path), or null. */
export function nameProblem(name: string): string | null {
  if (!name) return "A name is required";
  if (!NAME.test(name) || name === "." || name === "..") return "1 to 100 of A-Z a-z 0-9 _ - . (it ends the endpoint's path)";
  return null;
}

/** A name a mock could take from a label: "Weather smoke" → "weather-smoke". */
export function suggestedName(label: string): string {
  const slug = label.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100);
  return slug && slug !== "." && slug !== ".." ? slug : "mock";
}

/** JSON pointers typed one a line (or comma-separated): the list, or the first line that is not a pointer. */
export function parseIgnore(text: string): { ignore: string[] } | { problem: string } {
  const ignore = text.split(/[\n,]/).map((p) => p.trim()).filter(Boolean);
  const bad = ignore.find((p) => !p.startsWith("/"));
  return bad ? { problem: `Ignored paths are JSON pointers into the arguments, starting with /: ${bad}` } : { ignore };
}

/** Where to find a mock's endpoint and how to serve its file without a console. */
export function usageSnippet({ origin, endpoint, id }: { origin: string; endpoint: string; id: string }): string {
  return [
    "# Any MCP host (Streamable HTTP), with an API token that opens the gateway:",
    `#   URL            ${origin}${endpoint}`,
    "#   Authorization  Bearer $SWITCHBOARD_TOKEN",
    `claude mcp add --transport http mock '${origin}${endpoint}' --header "Authorization: Bearer $SWITCHBOARD_TOKEN"`,
    "",
    "# Offline or in CI, without a console: export the file and serve it",
    `curl -H "Authorization: Bearer $SWITCHBOARD_TOKEN" '${origin}/api/v1/mocks/${id}/export' -o mock.json`,
    `npx -y ${origin}/cli.tgz mock serve mock.json --port 3999`,
  ].join("\n");
}
