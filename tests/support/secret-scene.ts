import { expect } from "vitest";
import { apiClient, setupOwner, waitFor, type ConsoleHandle } from "./console";
import { insertMember } from "./database";

type Api = ReturnType<typeof apiClient>;

/** The people of the hostile secrets suites: an owner who configures, a member who runs, a viewer who reads. */
export async function secretScene(sb: ConsoleHandle): Promise<{ owner: Api; member: Api; viewer: Api; viewerToken: string }> {
  const setup = await setupOwner(sb.url);
  const workspaceId = setup.workspace.id;
  const member = apiClient(sb.url, await insertMember(sb.db, { workspaceId, userId: "user-member", name: "A member", email: "member@example.com", role: "member" }));
  const viewerToken = await insertMember(sb.db, { workspaceId, userId: "user-viewer", name: "A viewer", email: "viewer@example.com", role: "viewer" });
  return { owner: setup.api, member, viewer: apiClient(sb.url, viewerToken), viewerToken };
}

/** Creates a collection of `steps` as `api`, runs it with `environment` and returns the finished run. */
export async function runCollection({ api, name, steps, environment, timeoutMs = 60_000 }: { api: Api; name: string; steps: unknown[]; environment: string; timeoutMs?: number }): Promise<any> {
  const collection = await api("POST", "/api/v1/collections", { name, steps });
  expect(collection.status, JSON.stringify(collection.body)).toBe(201);
  const started = await api("POST", `/api/v1/collections/${collection.body.collection.id}/runs`, { environment, stopOnFailure: false });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  let run: any;
  await waitFor(async () => {
    run = (await api("GET", `/api/v1/runs/${started.body.run.id}`)).body.run;
    return run.status !== "running";
  }, timeoutMs, () => JSON.stringify(run));
  return run;
}

/** Fails naming `where` when `text` holds any of `secrets`. */
export function expectNoSecret(secrets: string[], text: string, where: string): void {
  for (const secret of secrets) expect(text, `${where} shows ${secret}`).not.toContain(secret);
}
