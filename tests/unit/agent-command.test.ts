import { describe, expect, it } from "vitest";
import { agentCommand } from "@/agent/src/command";

describe("the agent's own command line, as it tells people to run it", () => {
  it("is the console's npx command when run through npx", () => {
    expect(agentCommand("http://127.0.0.1:3000/", { npm_command: "exec" }, "/home/a/.npm/_npx/1a2b/node_modules/.bin/switchboard-agent")).toBe("npx -y http://127.0.0.1:3000/agent.tgz");
    expect(agentCommand("http://127.0.0.1:3000", {}, "/home/a/.npm/_npx/1a2b/node_modules/.bin/switchboard-agent")).toBe("npx -y http://127.0.0.1:3000/agent.tgz");
  });

  it("is the installed name when installed, and the script's path otherwise", () => {
    expect(agentCommand("http://127.0.0.1:3000", {}, "/usr/local/bin/switchboard-agent")).toBe("switchboard-agent");
    expect(agentCommand(undefined, {}, "/opt/agent/dist/cli.js")).toBe("node /opt/agent/dist/cli.js");
    expect(agentCommand(undefined, {}, "/opt/my agent/cli.js")).toBe('node "/opt/my agent/cli.js"');
  });
});
