// Node module hooks for the console's process (registered by server.ts before anything loads).
// "server-only" exists to keep server modules out of browser bundles; in this Node process every
// module is a server module, and the route handlers and start-up code load in this one graph.
let ownMapsOnly = false;
// The compiled server's directory (dist/): our own code, as .ts files are. The compiled server registers
// these hooks only when Node's source maps were on before it started (`node --enable-source-maps`).
let compiled = null;

export function initialize(data) {
  ownMapsOnly = data?.ownMapsOnly === true;
  compiled = data?.compiled ?? null;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") return { url: "data:text/javascript,export{}", shortCircuit: true };
  return nextResolve(specifier, context);
}

// In production a package's ES module loses the `//# sourceMappingURL=` lines it ends with (its own
// and the one tsx adds when it transforms it), so Node does not read and keep its map (server.ts
// does the same for CommonJS); our own code keeps its map (tsx's, or the compiled server's).
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!ownMapsOnly || result.source == null || !url.startsWith("file:") || /\.[cm]?tsx?$/.test(new URL(url).pathname) || (compiled && url.startsWith(compiled))) return result;
  const source = typeof result.source === "string" ? result.source : Buffer.from(result.source).toString("utf8");
  let end = source.length;
  for (;;) {
    const at = source.lastIndexOf("\n//# sourceMappingURL=", end - 2);
    if (at < 0 || source.slice(at + 1, end).trimEnd().includes("\n")) break;
    end = at + 1;
  }
  return end === source.length ? result : { ...result, source: source.slice(0, end) };
}
