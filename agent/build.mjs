// The agent's bundle and public/agent.tgz (scripts/pack-package.mjs).
import { packPackage } from "../scripts/pack-package.mjs";

await packPackage({
  dir: import.meta.dirname,
  name: "agent",
  label: "agent",
  alsoFrom: ["lib/relay/protocol.ts", "lib/core/telemetry/conventions.ts"],
  versionConstant: "AGENT_VERSION",
  external: ["bufferutil", "utf-8-validate"],
  // ws loads optional native helpers with require().
  banner: 'import { createRequire as __cr } from "node:module";\nconst require = __cr(import.meta.url);',
});
