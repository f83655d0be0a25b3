import tseslint from "typescript-eslint";

// One rule that matters: other code enters a domain only through its doors
// (lib/<domain>/index.ts, schemas.ts, server.ts, hooks.ts), and the MCP SDK stays in lib/mcp, lib/relay, agent/.
export default tseslint.config(
  { ignores: ["node_modules/**", ".next*/**", "dist/**", ".dist-*/**", "agent/dist/**", "cli/dist/**", "public/**", "data/**", "test-results/**"] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/lib/(?:(?:core|identity|domains|team|watch)/|(?!(?:core|identity|domains|team|watch)/))(?!api/route$|db/client$|db/bulk$|relay/protocol$)[\\w-]+/(?!index$|server$|hooks$|schemas$)[\\w./-]+$",
              message: "Import a domain through its doors: lib/[<floor>/]<domain>/index.ts, schemas.ts, server.ts or hooks.ts.",
            },
            {
              regex: "^@modelcontextprotocol/(client|server|core)",
              message: "The MCP SDK is used only in lib/mcp, lib/relay, lib/domains/demo (the built-in server), lib/gateway (the relay for other hosts), agent/ (and tests/bench).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/mcp/**", "lib/relay/**", "agent/**", "tests/**", "bench/**", "lib/domains/apps/**", "lib/domains/demo/**", "lib/gateway/**"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // A mock server (lib/domains/mocks) is an MCP server, built alike by the gateway and `switchboard mock serve`.
    files: ["lib/domains/mocks/mcp.ts", "cli/src/mock-serve.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // The composition root wires each domain's parts together (docs/architecture.md, "Start-up").
    files: ["lib/start/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ regex: "^@modelcontextprotocol/", message: "The composition root wires domains, not the SDK." }] }] },
  },
  {
    // The runtime names every domain's in-memory state type (type-only imports, erased at run time).
    files: ["lib/core/runtime/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ regex: "^@modelcontextprotocol/", message: "The runtime holds state, not the SDK." }] }] },
  },
);
