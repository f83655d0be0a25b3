import { SCIM_ENTERPRISE_USER_SCHEMA, SCIM_GROUP_SCHEMA, SCIM_LIST_SCHEMA, SCIM_USER_SCHEMA } from "./index";

const meta = (base: string, type: string, path: string) => ({ resourceType: type, location: `${base}${path}` });

/** GET /scim/v2/ServiceProviderConfig (RFC 7643 §5): what this console supports. */
export function serviceProviderConfig(base: string) {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: "https://github.com/switchboard/switchboard/blob/main/docs/operations.md#scim-provisioning",
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 1000 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: "oauthbearertoken", name: "Bearer token", description: "The workspace's SCIM token (POST /api/v1/workspace/scim-tokens)", primary: true }],
    meta: meta(base, "ServiceProviderConfig", "/ServiceProviderConfig"),
  };
}

const RESOURCE_TYPES = (base: string) => [
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"], id: "User", name: "User", endpoint: "/Users", schema: SCIM_USER_SCHEMA, schemaExtensions: [{ schema: SCIM_ENTERPRISE_USER_SCHEMA, required: false }], meta: meta(base, "ResourceType", "/ResourceTypes/User") },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"], id: "Group", name: "Group", endpoint: "/Groups", schema: SCIM_GROUP_SCHEMA, meta: meta(base, "ResourceType", "/ResourceTypes/Group") },
];

export function resourceTypes(base: string) {
  const items = RESOURCE_TYPES(base);
  return { schemas: [SCIM_LIST_SCHEMA], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items };
}

const attr = (name: string, type = "string", extra: Record<string, unknown> = {}) => ({ name, type, multiValued: false, required: false, caseExact: false, mutability: "readWrite", returned: "default", uniqueness: "none", ...extra });

const SCHEMAS = [
  {
    id: SCIM_USER_SCHEMA,
    name: "User",
    attributes: [
      attr("userName", "string", { required: true, uniqueness: "server" }),
      attr("name", "complex", { subAttributes: [attr("formatted"), attr("givenName"), attr("familyName")] }),
      attr("displayName"),
      attr("active", "boolean"),
      attr("emails", "complex", { multiValued: true, subAttributes: [attr("value"), attr("type"), attr("primary", "boolean")] }),
      attr("groups", "complex", { multiValued: true, mutability: "readOnly", subAttributes: [attr("value"), attr("display")] }),
    ],
  },
  {
    id: SCIM_GROUP_SCHEMA,
    name: "Group",
    attributes: [attr("displayName", "string", { required: true, uniqueness: "server" }), attr("members", "complex", { multiValued: true, subAttributes: [attr("value"), attr("display")] })],
  },
];

export function schemas(base: string) {
  const items = SCHEMAS.map((s) => ({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"], ...s, meta: meta(base, "Schema", `/Schemas/${s.id}`) }));
  return { schemas: [SCIM_LIST_SCHEMA], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items };
}
