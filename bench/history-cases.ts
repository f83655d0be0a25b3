export const RARE = { userId: "rare-user", name: "rare_tool", q: "zanzibar", tag: "incident-7", origin: "gateway" };
/** A second person making a third of the calls, so the user filter has a common value too. */
export const OTHER_USER = "user-b";
/** Tags on a share of the calls: "reviewed" on 10 %, "flaky" on 2 %, the rare one on the rare calls. */
export const TAGS = { common: "reviewed", some: "flaky" };

export type HistoryCase = { name: string; query: string };

/**
 * The history bench's requests: every filter alone, with common and rare values where they make a
 * different plan, every pair with server, status or tool, and the pairs and triples a person would
 * combine (a server's failures of one tool, a week of one tool's errors, a word within one server).
 * The seed's values are independent of each other (a tool is called on every server), so
 * combinations are as selective as their product: 1 in 13 errors × 1 in 19 servers × 1 in 30 tools
 * is 1 call in 7,400, the hardest shape for a newest-first page.
 */
export function historyCases({ serverIds, userId, deep, now }: { serverIds: string[]; userId: string; deep: string; now: number }): HistoryCase[] {
  const at = (daysAgo: number) => encodeURIComponent(new Date(now - daysAgo * 24 * 3600 * 1000).toISOString());
  const f = {
    server: `serverId=${serverIds[1]}`,
    rareServer: `serverId=${serverIds[0]}`,
    error: "status=error",
    timeout: "status=timeout",
    tool: "name=tool_3",
    rareTool: `name=${RARE.name}`,
    me: `userId=${userId}`,
    other: `userId=${OTHER_USER}`,
    rareUser: `userId=${RARE.userId}`,
    app: "origin=app",
    gateway: `origin=${RARE.origin}`,
    tag: `tag=${TAGS.common}`,
    someTag: `tag=${TAGS.some}`,
    rareTag: `tag=${RARE.tag}`,
    week: `from=${at(9)}&to=${at(2)}`,
    hour: `from=${at(3)}&to=${at(3 - 1 / 24)}`,
    word: "q=weather",
    rareWord: `q=${RARE.q}`,
  };
  const rows: [string, string[]][] = [
    ["newest page", []],
    ["server (common)", [f.server]],
    ["server (rare)", [f.rareServer]],
    ["status error", [f.error]],
    ["status timeout", [f.timeout]],
    ["tool (common)", [f.tool]],
    ["tool (rare)", [f.rareTool]],
    ["user (a third)", [f.other]],
    ["user (rare)", [f.rareUser]],
    ["origin app", [f.app]],
    ["origin gateway (rare)", [f.gateway]],
    ["tag (10 %)", [f.tag]],
    ["tag (2 %)", [f.someTag]],
    ["tag (rare)", [f.rareTag]],
    ["time range (a week)", [f.week]],
    ["time range (an hour)", [f.hour]],
    ["free text (common word)", [f.word]],
    ["free text (rare word)", [f.rareWord]],
    ["page 10,000 rows deep", [`cursor=${deep}`]],
    // Pairs with server.
    ["server + status error", [f.server, f.error]],
    ["server + status timeout", [f.server, f.timeout]],
    ["server + tool", [f.server, f.tool]],
    ["server (rare) + tool (rare)", [f.rareServer, f.rareTool]],
    ["server + user", [f.server, f.other]],
    ["server + origin app", [f.server, f.app]],
    ["server + origin gateway", [f.server, f.gateway]],
    ["server + tag (2 %)", [f.server, f.someTag]],
    ["server + week", [f.server, f.week]],
    ["server + hour", [f.server, f.hour]],
    ["server + common word", [f.server, f.word]],
    ["server + rare word", [f.server, f.rareWord]],
    // Pairs with status.
    ["status error + tool", [f.error, f.tool]],
    ["status timeout + tool", [f.timeout, f.tool]],
    ["status error + user", [f.error, f.other]],
    ["status error + origin app", [f.error, f.app]],
    ["status error + origin gateway", [f.error, f.gateway]],
    ["status error + tag (2 %)", [f.error, f.someTag]],
    ["status error + week", [f.error, f.week]],
    ["status error + hour", [f.error, f.hour]],
    ["status error + common word", [f.error, f.word]],
    // Pairs with tool.
    ["tool + user", [f.tool, f.other]],
    ["tool + origin app", [f.tool, f.app]],
    ["tool + tag (2 %)", [f.tool, f.someTag]],
    ["tool + week", [f.tool, f.week]],
    ["tool + common word", [f.tool, f.word]],
    ["tool (rare) + rare word", [f.rareTool, f.rareWord]],
    // Other pairs a person combines.
    ["user + week", [f.other, f.week]],
    ["tag (10 %) + week", [f.tag, f.week]],
    ["tag (rare) + status error", [f.rareTag, f.error]],
    ["common word + week", [f.word, f.week]],
    ["common word + tag (10 %)", [f.word, f.tag]],
    ["origin gateway + week", [f.gateway, f.week]],
    // Triples.
    ["server + status error + tool", [f.server, f.error, f.tool]],
    ["server + status timeout + tool", [f.server, f.timeout, f.tool]],
    ["server + tool + week", [f.server, f.tool, f.week]],
    ["server + status error + week", [f.server, f.error, f.week]],
    ["server + status error + common word", [f.server, f.error, f.word]],
    ["server + tool + common word", [f.server, f.tool, f.word]],
    ["status error + tool + common word", [f.error, f.tool, f.word]],
    ["status error + tool + week", [f.error, f.tool, f.week]],
    ["server + user + status error", [f.server, f.other, f.error]],
    ["server + status error + tag (10 %)", [f.server, f.error, f.tag]],
    ["server + origin app + status error", [f.server, f.app, f.error]],
    ["status error + common word + week", [f.error, f.word, f.week]],
    ["user (me) + tool + status error", [f.me, f.tool, f.error]],
  ];
  return rows.map(([name, parts]) => ({ name, query: parts.join("&") }));
}
