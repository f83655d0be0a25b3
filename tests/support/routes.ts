import fs from "node:fs";
import path from "node:path";
import type { ApiRouteKey } from "@/lib/core/routes";

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"] as const;

/** Every /api/v1 route file with the methods it exports: folder "servers/[id]" and method. */
export function apiRouteFiles(): { folder: string; method: string }[] {
  const out: { folder: string; method: string }[] = [];
  const base = path.join(ROOT, "app/api/v1");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const folder = path.relative(base, path.dirname(full)).split(path.sep).join("/");
        for (const method of METHODS) if (new RegExp(`export const ${method}\\b|export async function ${method}\\b`).test(source)) out.push({ folder, method });
      }
    }
  };
  walk(base);
  return out;
}

/** A concrete URL path for a route folder: every `[param]` becomes `x` (`[kind]` becomes `tools`). */
export function concretePath(folder: string): string {
  return "/api/v1/" + folder.split("/").map((seg) => (seg === "[kind]" ? "tools" : seg.replace(/^\[.*\]$/, "x"))).join("/");
}

/** The role matrix's key for a route folder ("servers/[id]") and method: "POST /api/v1/servers/:id". */
export function routeKey(method: string, folder: string): ApiRouteKey {
  return `${method} /api/v1/${folder.split("/").map((s) => s.replace(/^\[(.+)\]$/, ":$1")).join("/")}` as ApiRouteKey;
}
