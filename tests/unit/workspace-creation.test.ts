import { afterEach, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/core/access";
import { stubEnv, unstubAllEnvs } from "../support/config";

const memberships = vi.hoisted(() => ({ roles: [] as string[] }));
vi.mock("@/lib/team/workspaces/queries", () => ({ listMemberships: async () => memberships.roles.map((role) => ({ role })) }));

const { assertMayCreateWorkspace, workspaceCreation } = await import("@/lib/team/workspaces/creation");
const principal = { userId: "u1" } as Principal;

describe("who may create workspaces (SWITCHBOARD_WORKSPACE_CREATION)", () => {
  afterEach(() => unstubAllEnvs());

  it("defaults to anyone on a private console and admins on a public one; unknown values count as none", () => {
    stubEnv("SWITCHBOARD_WORKSPACE_CREATION", "");
    stubEnv("SWITCHBOARD_NETWORK_POLICY", "private");
    expect(workspaceCreation()).toBe("anyone");
    stubEnv("SWITCHBOARD_NETWORK_POLICY", "public");
    expect(workspaceCreation()).toBe("admins");
    for (const [value, rule] of [["anyone", "anyone"], [" Admins ", "admins"], ["none", "none"], ["everyone", "none"]]) {
      stubEnv("SWITCHBOARD_WORKSPACE_CREATION", value!);
      expect(workspaceCreation(), value).toBe(rule);
    }
  });

  it("admins: an admin or owner of some workspace may, a member or viewer everywhere may not", async () => {
    stubEnv("SWITCHBOARD_WORKSPACE_CREATION", "admins");
    memberships.roles = ["viewer", "admin"];
    await expect(assertMayCreateWorkspace(principal)).resolves.toBeUndefined();
    memberships.roles = ["viewer", "member"];
    await expect(assertMayCreateWorkspace(principal)).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/Only admins and owners/) });
  });

  it("none refuses everyone, owners included; anyone lets a viewer", async () => {
    memberships.roles = ["owner"];
    stubEnv("SWITCHBOARD_WORKSPACE_CREATION", "none");
    await expect(assertMayCreateWorkspace(principal)).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/turned off on this console/) });
    memberships.roles = ["viewer"];
    stubEnv("SWITCHBOARD_WORKSPACE_CREATION", "anyone");
    await expect(assertMayCreateWorkspace(principal)).resolves.toBeUndefined();
  });
});
