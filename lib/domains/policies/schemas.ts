import { z } from "zod";
import { ROLES } from "@/lib/core/access";
import { CONDITION_OPS, MAX_RULES, POLICY_EFFECTS } from "./index";
import { cedarDecimal, parsePointer, re2 } from "./match";

// A rule as a body gives it (docs/api.md "Policy rules"). Everything the engine relies on is
// checked here: globs, pointers, RE2 patterns, numbers Cedar's decimal can hold.

const Id = z.string().trim().min(1).max(200);
const Ids = z.array(Id).max(200);

/** A name or a glob: `*` is the only wildcard (any run of characters). */
const Glob = z
  .string()
  .min(1, "A name or glob is required")
  .max(500)
  .refine((s) => !s.includes("**"), "Write one * for any run of characters");
const Globs = z.array(Glob).min(1, "List at least one name or glob, or leave the field out").max(200);

const ConditionSchema = z
  .object({
    path: z
      .string()
      .max(1000)
      .refine((p) => parsePointer(p) !== null, 'path must be a JSON pointer: "" or "/name/0" (~0 for ~, ~1 for /)'),
    op: z.enum(CONDITION_OPS),
    value: z.unknown().optional(),
  })
  .superRefine((c, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: "custom", path: ["value"], message });
    if (c.op === "exists") return;
    if (c.value === undefined) return issue(`${c.op} needs a value`);
    if (c.op === "in" && !Array.isArray(c.value)) issue("in needs an array of values");
    if (c.op === "in" && Array.isArray(c.value) && c.value.length > 500) issue("in takes at most 500 values");
    if (c.op === "matches") {
      if (typeof c.value !== "string" || c.value.length > 1000) return issue("matches needs a pattern (a string of at most 1000 characters)");
      if (!re2(c.value)) issue(`invalid pattern /${c.value}/ (RE2 syntax: no look-around or back-references)`);
    }
    if ((c.op === "lt" || c.op === "gt") && cedarDecimal(c.value) === null) {
      issue(`${c.op} needs a finite number with at most 4 decimal places, below 922337203685477 in size`);
    }
    if (c.value !== undefined && JSON.stringify(c.value).length > 10_000) issue("value is too large (10 000 characters of JSON at most)");
  });

const RuleFields = {
  name: z.string().trim().min(1, "A name is required").max(200),
  effect: z.enum(POLICY_EFFECTS),
  servers: Ids.min(1, "List at least one server id, or leave the field out").optional(),
  tools: Globs.optional(),
  prompts: Globs.optional(),
  resources: Globs.optional(),
  principals: z
    .object({
      roles: z.array(z.enum(ROLES)).max(ROLES.length).optional(),
      members: Ids.optional(),
      tokens: Ids.optional(),
      hosts: Ids.optional(),
      groups: z.array(z.string().trim().min(1).max(500)).max(200).optional(),
    })
    .strict()
    .optional(),
  when: z.array(ConditionSchema).max(20).optional(),
  approvers: z.object({ roles: z.array(z.enum(ROLES)).max(ROLES.length).optional() }).strict().optional(),
  timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  rateLimit: z.object({ calls: z.number().int().min(1).max(1_000_000), perSeconds: z.number().int().min(1).max(86_400) }).strict().optional(),
  enabled: z.boolean().optional(),
};

/** POST /api/v1/policy-rules */
export const CreateRuleSchema = z.object(RuleFields).strict();
export type CreateRule = z.infer<typeof CreateRuleSchema>;

/** PATCH /api/v1/policy-rules/:id: the fields given replace the rule's; null removes an optional one. */
export const UpdateRuleSchema = z
  .object({
    name: RuleFields.name.optional(),
    effect: RuleFields.effect.optional(),
    servers: RuleFields.servers.nullable(),
    tools: RuleFields.tools.nullable(),
    prompts: RuleFields.prompts.nullable(),
    resources: RuleFields.resources.nullable(),
    principals: RuleFields.principals.nullable(),
    when: RuleFields.when.nullable(),
    approvers: RuleFields.approvers.nullable(),
    timeoutSeconds: RuleFields.timeoutSeconds.nullable(),
    rateLimit: RuleFields.rateLimit.nullable(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdateRule = z.infer<typeof UpdateRuleSchema>;

/** POST /api/v1/policy-rules/rollback */
// At most what the version column holds (a 32-bit integer on PostgreSQL: a larger one failed the query, a 500).
export const RollbackSchema = z.object({ version: z.number().int().min(1).max(2_147_483_647) }).strict();

/** PATCH /api/v1/workspace's `policyDefault`. */
export const PolicyDefaultSchema = z.enum(["allow", "deny"]);

/** POST /api/v1/policy-rules/test */
export const TestPolicySchema = z
  .object({
    principal: z
      .object({ role: z.enum(ROLES).optional(), userId: Id.optional(), tokenId: Id.optional(), clientId: Id.optional(), groups: z.array(z.string().max(500)).max(100).optional() })
      .strict()
      .refine((p) => p.role || p.userId || p.tokenId || p.clientId, "Give a role, userId, tokenId or clientId"),
    serverId: Id,
    tool: z.string().min(1).max(500).optional(),
    prompt: z.string().min(1).max(500).optional(),
    resource: z.string().min(1).max(4000).optional(),
    arguments: z.unknown().optional(),
  })
  .strict()
  .refine((b) => [b.tool, b.prompt, b.resource].filter((x) => x !== undefined).length === 1, { message: "Give one of tool, prompt or resource", path: ["tool"] });
export type TestPolicy = z.infer<typeof TestPolicySchema>;

export const ListVersionsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

export { MAX_RULES };
