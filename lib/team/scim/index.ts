/** SCIM 2.0 (RFC 7643/7644) schema URNs, as the identity providers send and expect them. */
export const SCIM_USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const SCIM_GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const SCIM_ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const SCIM_LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
export const SCIM_PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const SCIM_CONTENT_TYPE = "application/scim+json";

/** The roles a group may map to: never "owner". */
export const SCIM_MAPPABLE_ROLES = ["viewer", "auditor", "member", "admin"] as const;
export type ScimMappableRole = (typeof SCIM_MAPPABLE_ROLES)[number];

/** A workspace's SCIM token as listed (its secret is shown once, at creation). */
export interface ScimTokenInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}
