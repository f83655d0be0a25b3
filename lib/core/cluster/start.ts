import type { EventFanOut, WorkspaceEvent } from "@/lib/core/events";
import { openChannel } from "./channel";
import { clusterRegistry, ownInstanceUrl } from "./index";
import { forgetCache, runtime, type CacheName } from "@/lib/core/runtime";

// Started by lib/start, outside Next's bundles: nothing here may import "server-only". lib/start
// hands in the event bus and the relay hub: the cluster imports neither.

interface ClusterDeps {
  events: {
    deliver(workspaceId: string, id: string, event: WorkspaceEvent): void;
    localWatchers(): Map<string, number>;
    resetAll(): void;
    setFanOut(fanOut: EventFanOut | null): void;
  };
  relay: {
    localLinks(): { agentId: string; servers: string[] }[];
    setRemoteLink(agentId: string, instanceId: string, servers: string[] | null): void;
    forgetInstanceLinks(instanceId: string): void;
    /** Drops an agent connected here (false when it is not). */
    revokeHere(agentId: string): boolean;
    /** Where the hub reports its own links coming and going, and revocations meant for another instance. */
    onLinkChanged(listener: (agentId: string, servers: string[] | null) => void): void;
    onRevokeElsewhere(listener: (agentId: string) => void): void;
  };
}

const CHANNEL = "switchboard";
const ANNOUNCE_WAIT_MS = 2_000;

/** What instances tell each other; `from` is the sender's instance id. */
type Message =
  /** Joined, or its channel came back: the others answer with their state. */
  | { k: "hi"; from: string; url: string }
  | { k: "state"; from: string; url: string; links: { agentId: string; servers: string[] }[]; watchers: [string, number][] }
  | { k: "ev"; from: string; w: string; id: string; e: WorkspaceEvent }
  | { k: "link"; from: string; agentId: string; servers: string[] | null }
  | { k: "watch"; from: string; w: string; n: number }
  | { k: "revoke"; from: string; agentId: string }
  /** A cache another instance emptied (a token revoked, a server edited): empty ours too. */
  | { k: "forget"; from: string; cache: CacheName }
  | { k: "bye"; from: string };

interface Cluster {
  /** Another instance stopped beating: forget its agents and watchers. */
  forget(instanceIds: string[]): void;
  close(): Promise<void>;
}

/**
 * Joins the other console instances on the same PostgreSQL database through LISTEN/NOTIFY:
 * every workspace event reaches every instance (in one order, so replay ids work anywhere),
 * and each instance learns which agents are connected where, who watches which workspace, and
 * the URL to forward a request to (lib/core/cluster/forward.ts).
 */
export function startCluster({ databaseUrl, instanceId, events, relay, log = console.log }: { databaseUrl: string; instanceId: string; log?: (line: string) => void } & ClusterDeps): Cluster {
  const registry = clusterRegistry();
  const url = ownInstanceUrl();
  const { deliver, localWatchers, resetAll, setFanOut } = events;
  const { localLinks, setRemoteLink, forgetInstanceLinks } = relay;

  const asked = new Set<string>();
  const forget = (id: string) => {
    registry.urls.delete(id);
    registry.watchers.delete(id);
    forgetInstanceLinks(id);
  };

  const handle = (m: Message) => {
    if (m.k === "ev") return deliver(m.w, m.id, m.e);
    if (m.from === instanceId) return;
    // An instance we had taken for gone (its heartbeat was late) is alive: ask everyone's state again.
    if (m.k !== "hi" && m.k !== "state" && m.k !== "bye" && !registry.urls.has(m.from) && !asked.has(m.from)) {
      asked.add(m.from);
      void post({ k: "hi", from: instanceId, url });
    }
    switch (m.k) {
      case "hi":
        registry.urls.set(m.from, m.url);
        return void post({ k: "state", from: instanceId, url, links: localLinks(), watchers: [...localWatchers()] });
      case "state":
        asked.delete(m.from);
        registry.urls.set(m.from, m.url);
        registry.watchers.set(m.from, new Map(m.watchers));
        for (const link of m.links) setRemoteLink(link.agentId, m.from, link.servers);
        return;
      case "link":
        return setRemoteLink(m.agentId, m.from, m.servers);
      case "watch": {
        const counts = registry.watchers.get(m.from) ?? new Map<string, number>();
        if (m.n > 0) counts.set(m.w, m.n);
        else counts.delete(m.w);
        registry.watchers.set(m.from, counts);
        return;
      }
      case "revoke":
        return void relay.revokeHere(m.agentId);
      case "forget":
        return forgetCache(m.cache, { announce: false });
      case "bye":
        return forget(m.from);
    }
  };

  const channel = openChannel(databaseUrl, CHANNEL, {
    message(text) {
      try {
        handle(JSON.parse(text) as Message);
      } catch (err) {
        log(`[cluster] dropped a message: ${(err as Error).message}`);
      }
    },
    up(firstTime) {
      // Whatever other instances published while we could not hear it is gone: browsers refetch.
      if (!firstTime) {
        log("[cluster] instance channel back up");
        resetAll();
        // Forgets announced while we could not hear them.
        void forgetCache("tokenCache", { announce: false });
        void forgetCache("serverCache", { announce: false });
        void forgetCache("policyCache", { announce: false });
      }
      void post({ k: "hi", from: instanceId, url });
      void post({ k: "state", from: instanceId, url, links: localLinks(), watchers: [...localWatchers()] });
    },
    down(reason) {
      log(`[cluster] instance channel down (${reason}); events stay on this instance until it is back`);
    },
  });

  const post = (m: Message) =>
    channel.send(JSON.stringify(m)).then(
      () => true,
      (err: Error) => (log(`[cluster] could not send ${m.k}: ${err.message}`), false),
    );

  setFanOut({
    send(workspaceId, id, event) {
      if (!channel.connected()) return false;
      // An event that cannot go out (too large) still reaches this instance's own watchers.
      void post({ k: "ev", from: instanceId, w: workspaceId, id, e: event }).then((sent) => sent || deliver(workspaceId, id, event));
      return true;
    },
    remoteWatchers(workspaceId) {
      let n = 0;
      for (const counts of registry.watchers.values()) n += counts.get(workspaceId) ?? 0;
      return n;
    },
    watchersChanged(workspaceId, count) {
      void post({ k: "watch", from: instanceId, w: workspaceId, n: count });
    },
  });
  // The write that forgets waits for the notification to be committed (bounded: a stalled channel
  // must not hold the request; the others forget everything when their channel comes back).
  runtime().cacheAnnouncer = async (cache) => {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<void>((resolve) => (timer = setTimeout(resolve, ANNOUNCE_WAIT_MS)));
    await Promise.race([post({ k: "forget", from: instanceId, cache }), stalled]);
    clearTimeout(timer);
  };
  relay.onLinkChanged((agentId, servers) => void post({ k: "link", from: instanceId, agentId, servers }));
  relay.onRevokeElsewhere((agentId) => void post({ k: "revoke", from: instanceId, agentId }));

  return {
    forget: (ids) => ids.forEach(forget),
    async close() {
      runtime().cacheAnnouncer = undefined;
      await post({ k: "bye", from: instanceId });
      setFanOut(null);
      await channel.close();
    },
  };
}
