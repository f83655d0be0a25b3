import "server-only";

export { currentIdToken, forgetIdentityTokens, listIdentityTokens, sameIssuer, saveIdentityToken, storeIdentityToken } from "./identity-tokens";
export { SSO_MANAGEMENT_PATHS, ssoPlugins } from "./plugin";
export { operatorProvider, operatorSamlProvider } from "./provider";
export { signedInWithSso, ssoSessionStands } from "./session-check";
export { getWorkspaceSso, signInOptions, ssoDatabaseHooks, updateWorkspaceSso } from "./settings";
export { registerWorkspaceProvider, removeWorkspaceProvider, verifyWorkspaceProvider } from "./owner-provider";
export { withOpenedProviderSecrets } from "./sealed-config";
