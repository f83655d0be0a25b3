// Isomorphic door: types and the error class only, no SDK runtime.
export { McpError, type McpErrorKind } from "./errors";
export type { Failure, SignInRequired } from "./failures";
export type { CallMethod, CompletionRequest, CompletionResult, ConnectionInfo, ListChangedKind, ListKind, Negotiation, Progress, ProtocolEra, TaskInfo, TransportMode, ToolDefinition } from "./types";
export type { OAuthBody, OAuthExchange, OAuthParam, OAuthStep, OAuthStepId, OAuthStepStatus, OAuthTrace, OAuthTraceKind } from "./oauth-trace-types";
