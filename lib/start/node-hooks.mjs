// Node module hooks for the console's process (registered by server.ts before anything loads).
// "server-only" exists to keep server modules out of browser bundles; in this Node process every
// module is a server module, and the route handlers and start-up code load in this one graph.
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") return { url: "data:text/javascript,export{}", shortCircuit: true };
  return nextResolve(specifier, context);
}
