import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";

/** Issue 11, item 7: failed sign-ins limited per account and address, per address, with backoff; not bypassed by X-Forwarded-For. */
describe("sign-in limits", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let grace: { email: string; password: string };

  const signIn = async (email: string, password: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url, ...headers },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json().catch(() => null) };
  };

  beforeAll(async () => {
    sb = await startConsole({
      env: { SWITCHBOARD_SIGNIN_MAX_FAILURES: "3", SWITCHBOARD_SIGNIN_MAX_FAILURES_PER_ADDRESS: "8", SWITCHBOARD_SIGNIN_BLOCK_SECONDS: "1" },
    });
    owner = await setupOwner(sb.url);
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "member" });
    const token = new URL(invited.body.invitation.url).pathname.split("/").pop()!;
    grace = { email: "grace@example.com", password: "password-grace" };
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ token, name: "Grace", password: grace.password }),
    });
    expect(accepted.status).toBe(200);
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("locks one account from one address after a few failures, whatever X-Forwarded-For says, then lets the right password in after the backoff", async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(owner.email, "wrong password", { "x-forwarded-for": `198.51.100.${i}` })).status).toBe(401);
    const locked = await signIn(owner.email, owner.password, { "x-forwarded-for": "198.51.100.77" });
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatchObject({ code: "too_many_requests" });
    expect(Number(locked.retryAfter)).toBeGreaterThanOrEqual(1);
    // Another account from the same address is not locked out by it.
    expect((await signIn(grace.email, grace.password)).status).toBe(200);
    await waitFor(async () => (await signIn(owner.email, owner.password)).status === 200, 10_000);
  });

  it("doubles the lockout each time the same pair is locked again", async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(owner.email, "wrong again")).status).toBe(401);
    const second = await signIn(owner.email, owner.password);
    expect(second.status).toBe(429);
    expect(Number(second.retryAfter)).toBe(2);
  });

  it("stops one address spraying many accounts", async () => {
    const sprayed = [];
    for (let i = 0; i < 8; i++) sprayed.push((await signIn(`nobody${i}@example.com`, "guess")).status);
    expect(sprayed.every((s) => s === 401 || s === 429)).toBe(true);
    expect((await signIn("nobody-else@example.com", "guess")).status).toBe(429);
    expect((await signIn(grace.email, grace.password)).status).toBe(429);
  });
});

/** Issue 12: the counters live in the database, so a lockout earned on one instance holds on every other. */
describe("sign-in limits across instances", () => {
  let a: ConsoleHandle;
  let b: ConsoleHandle | undefined;
  const signInAt = async (base: string, email: string, password: string) =>
    (
      await fetch(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ email, password }),
      })
    ).status;

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("an account locked through one instance is locked through another sharing the database", async () => {
    const env = { SWITCHBOARD_SIGNIN_MAX_FAILURES: "3", SWITCHBOARD_SIGNIN_BLOCK_SECONDS: "600" };
    a = await startConsole({ env });
    const owner = await setupOwner(a.url);
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    expect(await signInAt(b.url, owner.email, owner.password)).toBe(200);
    for (let i = 0; i < 3; i++) expect(await signInAt(a.url, owner.email, "wrong password")).toBe(401);
    expect(await signInAt(a.url, owner.email, owner.password)).toBe(429);
    expect(await signInAt(b.url, owner.email, owner.password)).toBe(429);
    // A restart does not forget it either.
    await b.stop();
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    expect(await signInAt(b.url, owner.email, owner.password)).toBe(429);
  });
});

/** Issue 24, item 7: failures from many addresses slow the owner's account down briefly, never lock its owner out. */
describe("sign-in limits under a distributed attack", () => {
  let sb: ConsoleHandle;
  const BLOCK_S = 3;
  const signIn = async (email: string, password: string, from: string) => {
    const res = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url, "x-forwarded-for": from },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, retryAfter: Number(res.headers.get("retry-after")) };
  };

  beforeAll(async () => {
    sb = await startConsole({
      env: { SWITCHBOARD_TRUST_PROXY: "1", SWITCHBOARD_SIGNIN_MAX_FAILURES: "3", SWITCHBOARD_SIGNIN_MAX_FAILURES_PER_ACCOUNT: "20", SWITCHBOARD_SIGNIN_BLOCK_SECONDS: String(BLOCK_S) },
    });
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("lets the owner in at once from an address it used before, and a new address after a pause of at most the block seconds", async () => {
    const owner = await setupOwner(sb.url);
    expect((await signIn(owner.email, owner.password, "198.51.100.200")).status).toBe(200);

    const answers = new Map<number, number>();
    for (let round = 0; round < 4; round++) {
      for (let n = 1; n <= 30; n++) {
        const { status, retryAfter } = await signIn(owner.email, `wrong ${round}`, `198.51.100.${n}`);
        answers.set(status, (answers.get(status) ?? 0) + 1);
        if (status === 429) expect(retryAfter).toBeLessThanOrEqual(BLOCK_S);
      }
    }
    expect(answers.get(401)).toBeGreaterThanOrEqual(20);
    expect(answers.get(429)).toBeGreaterThan(0);

    expect((await signIn(owner.email, owner.password, "198.51.100.200")).status).toBe(200);
    const fresh = await signIn(owner.email, owner.password, "198.51.100.201");
    if (fresh.status !== 200) {
      expect(fresh.status).toBe(429);
      expect(fresh.retryAfter).toBeGreaterThanOrEqual(1);
      expect(fresh.retryAfter).toBeLessThanOrEqual(BLOCK_S);
      await waitFor(async () => (await signIn(owner.email, owner.password, "198.51.100.201")).status === 200, (BLOCK_S + 2) * 1000);
    }
  });
});
