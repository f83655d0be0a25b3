/** Levelled logging to stderr; stdout stays free for command output. */
export type Level = "error" | "warn" | "info" | "debug";
const ORDER: Record<Level, number> = { error: 0, warn: 1, info: 2, debug: 3 };
let threshold: Level = "info";

/** Sets the most detailed level that is printed (`--verbose` → "debug"). */
export function setLogLevel(level: Level): void {
  threshold = level;
}

function write(level: Level, message: string): void {
  if (ORDER[level] > ORDER[threshold]) return;
  const time = new Date().toISOString().slice(11, 23);
  process.stderr.write(`${time} ${level.padEnd(5)} ${message}\n`);
}

export const log = {
  error: (m: string) => write("error", m),
  warn: (m: string) => write("warn", m),
  info: (m: string) => write("info", m),
  debug: (m: string) => write("debug", m),
};
