import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A root the agent left out of a `roots/list` answer, and why. */
export interface RefusedRoot {
  uri: string;
  reason: string;
}

/**
 * Checks the roots the console answers a server's `roots/list` with against this machine: each must
 * be a `file://` URI of an existing directory inside one of the directories the local config allows
 * for that server (`roots`). Symlinks are resolved on both sides, so a link cannot lead outside.
 */
export function checkRoots(roots: unknown[], allowed: readonly string[]): { kept: unknown[]; refused: RefusedRoot[] } {
  const allowedReal = allowed.map(realDir).filter((d): d is string => d !== null);
  const kept: unknown[] = [];
  const refused: RefusedRoot[] = [];
  for (const root of roots) {
    const uri = typeof (root as { uri?: unknown })?.uri === "string" ? (root as { uri: string }).uri : "";
    const reason = refusal(uri, allowedReal);
    if (reason) refused.push({ uri: uri.slice(0, 4096), reason });
    else kept.push(root);
  }
  return { kept, refused };
}

function refusal(uri: string, allowed: string[]): string | null {
  let dir: string;
  try {
    dir = fileURLToPath(uri);
  } catch {
    return "not a file:// URI";
  }
  const real = realDir(dir);
  if (real === null) return "no such directory on the agent's machine";
  if (!allowed.some((a) => real === a || real.startsWith(a.endsWith(path.sep) ? a : a + path.sep))) {
    return "not allowed by the agent's config for this server";
  }
  return null;
}

function realDir(dir: string): string | null {
  try {
    const real = fs.realpathSync(dir);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}
