// What a conforming client does in each client scenario of the conformance suite, written once
// over a handful of operations so the bare SDK client and the console client do the same things.

/** MCP_CONFORMANCE_CONTEXT, parsed (credentials, or the tool calls a scenario wants made). */
export function scenarioContext() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw ? JSON.parse(raw) : undefined;
}

/** Placeholder values for a tool's required arguments, so a generic call is schema-valid. */
export function sampleArguments(schema) {
  const args = {};
  const props = schema?.properties ?? {};
  for (const name of schema?.required ?? []) {
    const p = props[name] ?? {};
    if (p.default !== undefined) args[name] = p.default;
    else if (Array.isArray(p.enum)) args[name] = p.enum[0];
    else if (p.type === "number" || p.type === "integer") args[name] = 1;
    else if (p.type === "boolean") args[name] = true;
    else if (p.type === "object") args[name] = {};
    else if (p.type === "array") args[name] = [];
    else args[name] = "x";
  }
  return args;
}

/**
 * ops: listTools() → { tools }, callTool(name, args), listResources() → { resources },
 * readResource(uri), listPrompts() → { prompts }, getPrompt(name).
 */
export async function exercise(scenario, ctx, ops) {
  const { tools } = await ops.listTools();
  if (Array.isArray(ctx?.toolCalls)) {
    for (const call of ctx.toolCalls) await ops.callTool(call.name, call.arguments ?? {});
    return;
  }
  switch (scenario) {
    case "initialize":
    case "request-metadata":
    case "json-schema-ref-no-deref":
      return;
    case "tools_call":
      if (tools[0]) await ops.callTool(tools[0].name, { a: 2, b: 3 });
      return;
    case "json-schema-2020-12-preservation": {
      const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("json_schema_2020_12_tool not listed");
      await ops.callTool("json_schema_echo", { schema: focal.inputSchema });
      return;
    }
    case "http-standard-headers": {
      for (const t of tools) await ops.callTool(t.name, sampleArguments(t.inputSchema));
      const { resources } = await ops.listResources();
      for (const r of resources) await ops.readResource(r.uri);
      const { prompts } = await ops.listPrompts();
      for (const p of prompts) await ops.getPrompt(p.name);
      return;
    }
    default:
      // Elicitation defaults, SSE retry, MRTR, invalid tool headers, auth: call every listed tool.
      // A failed call is logged, not fatal: the scenario's checks judge it, and later calls still run.
      for (const t of tools) {
        await ops.callTool(t.name, sampleArguments(t.inputSchema)).catch((err) => console.error(`${t.name}: ${err?.message ?? err}`));
      }
  }
}
