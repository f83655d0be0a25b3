// oidc-provider ships no types and @types/oidc-provider is not installed; the tests use it loosely.
declare module "oidc-provider";
