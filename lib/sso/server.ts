import "server-only";

export { currentIdToken, forgetIdentityTokens, listIdentityTokens, sameIssuer, saveIdentityToken, storeIdentityToken } from "./identity-tokens";
export { ssoPlugins } from "./plugin";
export { operatorProvider } from "./provider";
export { ssoSessionStands } from "./session-check";
export { getWorkspaceSso, signInOptions, ssoDatabaseHooks, updateWorkspaceSso } from "./settings";
