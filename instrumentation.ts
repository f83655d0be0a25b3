// Next calls register() once per server process, inside its own module graph (where lib/* server
// modules may load; server.ts cannot import them): follow again the tasks a previous run left.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { resumeTasks } = await import("@/lib/calls/server");
  const count = await resumeTasks().catch((err: unknown) => {
    console.error("Could not resume task calls:", err);
    return 0;
  });
  if (count) console.log(`${count} task call(s) from the previous run followed again`);
}
