import { VARIABLES, type Variable } from "./variables";

// Loaded by both module graphs (lib/start's and Next's bundles) and by isomorphic doors the browser
// loads (lib/identity/auth, lib/core/access): no "server-only", no zod (tests/unit/architecture.test.ts keeps zod
// out of the browser's first load; six small readers in read.ts do the work).

export { VARIABLES, documentedDefault } from "./variables";

type ValueOf<V> = V extends Variable<infer T> ? T : never;

/** The console's configuration: every variable it reads, parsed, with its default applied. Frozen. */
export type Config = { readonly [K in keyof typeof VARIABLES]: ValueOf<(typeof VARIABLES)[K]> };

/** The environment, or a test's stand-in for it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** One message naming every bad variable and why. */
export class ConfigError extends Error {
  /** One line per bad variable: `NAME: why`. */
  declare readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration (${problems.length} variable${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
    // What a person reads at start-up is the list once: no stack, and no second copy of it when logged.
    this.stack = `${this.name}: ${this.message}`;
    Object.defineProperty(this, "problems", { value: problems, enumerable: false });
  }
}

/** Parses `env` into a configuration, or throws one ConfigError naming every bad variable. Pure. */
export function configFrom(env: Env): Config {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [field, variable] of Object.entries(VARIABLES) as [string, Variable<unknown>][]) {
    const raw = env[variable.env];
    if (raw === undefined || raw.trim() === "") {
      values[field] = variable.fallback;
      continue;
    }
    try {
      values[field] = variable.read(raw);
    } catch (err) {
      problems.push(`${variable.env}: ${(err as Error).message}`);
    }
  }
  const config = values as Config;
  if (!problems.length) problems.push(...together(config));
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** Variables that only mean something together: half of an identity provider is a mistake, not "none". */
function together(config: Config): string[] {
  const problems: string[] = [];
  if ((config.ssoIssuer === null) !== (config.ssoClientId === null)) {
    problems.push(`${config.ssoIssuer === null ? "SWITCHBOARD_SSO_ISSUER" : "SWITCHBOARD_SSO_CLIENT_ID"}: required with ${config.ssoIssuer === null ? "SWITCHBOARD_SSO_CLIENT_ID" : "SWITCHBOARD_SSO_ISSUER"}`);
  }
  const saml = { SWITCHBOARD_SAML_ENTRY_POINT: config.samlEntryPoint, SWITCHBOARD_SAML_ISSUER: config.samlIssuer, SWITCHBOARD_SAML_CERT: config.samlCert };
  const missing = Object.entries(saml).filter(([, value]) => value === null).map(([name]) => name);
  if (missing.length && missing.length < 3) problems.push(...missing.map((name) => `${name}: required with ${Object.keys(saml).filter((n) => !missing.includes(n)).join(" and ")}`));
  return problems;
}

// A memo of a pure computation of the environment, the same in every module graph: nothing writes
// process.env once the console runs.
let cached: Config | undefined;

/** The process's configuration, parsed from `process.env` on first use. */
export function config(): Config {
  return (cached ??= configFrom(process.env));
}

/** Parses the configuration now (lib/start, first thing): a bad value stops the start with one message naming each bad variable. */
export function loadConfig(): Config {
  return config();
}

/** Tests only: forget the parsed configuration, so that the next read sees `process.env` as a test changed it. */
export function resetConfig(): void {
  cached = undefined;
}
