// npx tsx scripts/dead-exports.ts [folder…] – exported names in lib/ and components/ (or the given
// folders) that no other file imports: candidates to un-export or delete. Every file of the project
// counts as a user (app/, tests/, scripts/, bench/, agent/, server.ts…); a namespace import or an
// import() of a module counts as using all of its exports.
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..");
const folders = process.argv.slice(2).length ? process.argv.slice(2) : ["lib", "components"];

const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
const program = ts.createProgram(config.fileNames.filter((f) => !f.includes("/.next")), config.options);
const checker = program.getTypeChecker();
const ours = (file: ts.SourceFile) => !file.isDeclarationFile && !path.relative(ROOT, file.fileName).startsWith("node_modules");

const used = new Set<ts.Symbol>();
const wholeModules = new Set<ts.Symbol>();
const resolve = (symbol: ts.Symbol | undefined): ts.Symbol | undefined => (symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
const markChain = (symbol: ts.Symbol | undefined) => {
  // Mark every alias on the way (a door's re-export, then the declaration behind it).
  let s = symbol;
  for (let i = 0; s && i < 20; i++) {
    used.add(s);
    if (!(s.flags & ts.SymbolFlags.Alias)) break;
    s = checker.getImmediateAliasedSymbol(s);
  }
};
const moduleOf = (specifier: ts.Expression) => resolve(checker.getSymbolAtLocation(specifier));

for (const file of program.getSourceFiles().filter(ours)) {
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && node.importClause) {
      const clause = node.importClause;
      if (clause.name) markChain(checker.getSymbolAtLocation(clause.name));
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        const m = moduleOf(node.moduleSpecifier);
        if (m) wholeModules.add(m);
      } else if (bindings) for (const el of bindings.elements) markChain(checker.getSymbolAtLocation(el.name));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) {
        const m = moduleOf(node.moduleSpecifier);
        if (m) wholeModules.add(m);
      }
      // Named re-exports are used only when someone imports them (the chain marks them).
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require")) && node.arguments[0]) {
      const m = moduleOf(node.arguments[0]);
      if (m) wholeModules.add(m);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const m = moduleOf(node.argument.literal);
      if (m && !node.qualifier) wholeModules.add(m);
      else if (node.qualifier) markChain(checker.getSymbolAtLocation(node.qualifier));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

for (const module of wholeModules) for (const symbol of checker.getExportsOfModule(module)) markChain(symbol);

const dead: string[] = [];
for (const file of program.getSourceFiles().filter(ours)) {
  const relative = path.relative(ROOT, file.fileName);
  if (!folders.some((f) => relative === f || relative.startsWith(f + "/"))) continue;
  const module = checker.getSymbolAtLocation(file);
  if (!module) continue;
  for (const symbol of checker.getExportsOfModule(module)) {
    if (symbol.name === "default") continue;
    if (used.has(symbol) || used.has(resolve(symbol)!)) continue;
    const declaration = symbol.declarations?.[0];
    const line = declaration ? file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1 : 0;
    dead.push(`${relative}:${line} ${symbol.name}`);
  }
}
console.log(dead.sort().join("\n"));
console.error(`${dead.length} exports nobody imports`);
