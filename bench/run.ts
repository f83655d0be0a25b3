import fs from "node:fs";
import path from "node:path";
import { benchConsole } from "./console";

await benchConsole();
const relay = path.join(import.meta.dirname, "relay.ts");
if (fs.existsSync(relay)) {
  const mod = (await import(relay)) as { benchRelay?: () => Promise<void> };
  await mod.benchRelay?.();
}
