import { describe, expect, it } from "vitest";
import { ROUTE_ACCESS, actionRole, deniedReason, gateOf, type Role } from "@/lib/core/access";

// The UI's gates read the role matrix: what a control says about who may use it is what the API enforces.
describe("role gates and their reasons", () => {
  it("each action needs the role the matrix gives its route", () => {
    expect(actionRole("run")).toBe(ROUTE_ACCESS["POST /api/v1/servers/:id/tools/call"]);
    expect(actionRole("connect")).toBe(ROUTE_ACCESS["POST /api/v1/servers/:id/connect"]);
    expect(actionRole("editServer")).toBe(ROUTE_ACCESS["PATCH /api/v1/servers/:id"]);
    expect(actionRole("share")).toBe(ROUTE_ACCESS["POST /api/v1/calls/:id/shares"]);
    expect(actionRole("invite")).toBe(ROUTE_ACCESS["POST /api/v1/invitations"]);
    expect(actionRole("addServer")).toBe(ROUTE_ACCESS["POST /api/v1/servers"]);
  });

  it("a gate is a role or an action, with words for the action", () => {
    expect(gateOf("admin")).toEqual({ min: "admin" });
    expect(gateOf("run")).toEqual({ min: "member", verb: "run calls" });
  });

  it.each<[Role, Role, string | undefined, string]>([
    ["viewer", "member", "run calls", "Viewers can't run calls — members, admins and the owner can; ask an admin to change your role."],
    ["member", "admin", "edit servers", "Members can't edit servers — admins and the owner can; ask an admin to change your role."],
    ["admin", "owner", "delete the workspace", "Admins can't delete the workspace — only the owner can."],
    ["viewer", "admin", undefined, "Viewers can't do this — admins and the owner can; ask an admin to change your role."],
  ])("%s refused what needs %s (%s)", (role, min, verb, reason) => {
    expect(deniedReason(role, min, verb)).toBe(reason);
  });
});
