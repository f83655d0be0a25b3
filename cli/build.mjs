// The CLI's bundle and public/cli.tgz (scripts/pack-package.mjs).
import { packPackage } from "../scripts/pack-package.mjs";

await packPackage({ dir: import.meta.dirname, name: "cli", label: "CLI", alsoFrom: ["lib/domains/collections/junit.ts", "lib/domains/quality/index.ts", "lib/domains/mocks"], versionConstant: "CLI_VERSION" });
