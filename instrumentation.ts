export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { interruptPendingCalls } = await import("@/lib/calls/server");
  const count = await interruptPendingCalls();
  if (count) console.log(`[switchboard] ${count} call(s) left pending by the last run marked interrupted`);
}
