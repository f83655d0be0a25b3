/**
 * How to run the agent again the way it was run now: through npx from the console (the pairing
 * instructions' way, where no `switchboard-agent` lands on PATH) or by the script's own path.
 */
export function agentCommand(consoleUrl: string | undefined, env: Record<string, string | undefined> = process.env, script = process.argv[1] ?? ""): string {
  const viaNpx = env.npm_command === "exec" || /[\\/]_npx[\\/]/.test(script);
  if (viaNpx && consoleUrl) return `npx -y ${consoleUrl.replace(/\/+$/, "")}/agent.tgz`;
  if (/[\\/]switchboard-agent$/.test(script)) return "switchboard-agent";
  return `node ${script.includes(" ") ? JSON.stringify(script) : script}`;
}
