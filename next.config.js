/** @type {import('next').NextConfig} */
const nextConfig = {
  // Lets several builds coexist on one machine (parallel test runs); `.next` by default.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["better-sqlite3", "@cedar-policy/cedar-wasm", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg", "@prisma/client", "ws", "undici"],
  typedRoutes: false,
  // Each page's modules load on its first request, not all at start: a restart listened 1.7 s of CPU
  // sooner, ~50 MiB smaller (docs/benchmarks.md, "issue 39: restart of a built console").
  experimental: { preloadEntriesOnStart: false },
  poweredByHeader: false,
  // API answers are small and per-request gzip was the largest CPU cost in profiles; a reverse
  // proxy in front of a deployment can compress.
  compress: false,
  // Page loads answer no-store (proxy.ts), so a browser never revalidates with an ETag: hashing
  // each page's HTML for one (in JavaScript, per request) is work for nothing.
  generateEtags: false,
  // `npm test` type-checks the whole repo (tests, agent, bench included) with tsc.
  typescript: { ignoreBuildErrors: true },
  // A share link asked for JSON (scripts, `curl -H 'accept: application/json'`) answers with the public API.
  // Pages with an id in the URL whose content the client fetches are one prerendered shell (the id
  // "_"), read by the client (components/console/url-segment.tsx). After files: /servers/new stays itself.
  async rewrites() {
    const shell = (path) => ({ source: path.replace("_", ":id"), destination: path });
    return {
      beforeFiles: [
        { source: "/s/:token", has: [{ type: "header", key: "accept", value: ".*application/json.*" }], destination: "/api/v1/public/shares/:token" },
      ],
      afterFiles: ["/servers/_", "/servers/_/oauth", "/agents/_", "/calls/_", "/invite/_", "/collections/_", "/runs/_", "/replays/_", "/load-tests/_", "/mocks/_", "/monitors/_", "/s/_"].map(shell),
    };
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
