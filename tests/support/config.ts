import { vi } from "vitest";
import { resetConfig } from "@/lib/core/config";

// lib/core/config parses the environment once per process: a test that changes a variable in-process
// (rather than starting a console with it) has the configuration read again.

/** `vi.stubEnv`, then the next `config()` reads the environment again. */
export function stubEnv(name: string, value: string): void {
  vi.stubEnv(name, value);
  resetConfig();
}

/** `vi.unstubAllEnvs`, then the next `config()` reads the environment again. */
export function unstubAllEnvs(): void {
  vi.unstubAllEnvs();
  resetConfig();
}
