/**
 * One redaction function and one default list for everything that is recorded or leaves a
 * workspace: call history, traffic, exports, share links. Field names match case-insensitively,
 * ignoring `-` and `_` ("API-Key", "api_key" and "apiKey" are the same name), and a listed name
 * also matches any field that contains it ("x_auth_token" matches "token"). Stored secret values
 * (a server's header values, OAuth tokens and client secrets) are masked as text wherever they occur.
 */
export { DEFAULT_REDACTION_KEYS, OAUTH_SECRET_FIELDS, OAUTH_SECRET_HEADERS, REDACTED, redactionKeys, redactionMatcher, type MatchOptions } from "./lists";
export { MAX_DEPTH, redact } from "./redact";
export { NO_SECRETS, joinSecretValues, maskSecretValues, mentionsSecretValue, secretValues, type SecretValues } from "./secret-values";
