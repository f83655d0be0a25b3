import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe("the Node.js version the README states", () => {
  it("is the one package.json declares", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const stated = /Node\.js (\d+\.\d+)\+/.exec(readme)?.[1];
    expect(stated).toBeDefined();
    expect(pkg.engines.node).toBe(`>=${stated}`);
  });

  it("satisfies every installed package, so npm install prints no EBADENGINE", () => {
    const lowest = semver.minVersion(pkg.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name && !Array.isArray(p.engines) && p.engines?.node && !semver.satisfies(lowest, p.engines.node))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, "")} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
