// A module's top level as parts that declare and use one another: each statement, each binding of
// an import and each name of an `export { … }` list, with the top-level parts each one reads.
// TypeScript's checker resolves the names, so a parameter or an inner variable that shadows a
// top-level one is not mistaken for it, and a name read only in a type (erased) does not count.
import ts from "typescript";

/** A statement, or one binding of an import, or one name of an `export { … }` list. */
export type Part =
  ts.Statement | ts.ImportClause | ts.NamespaceImport | ts.ImportSpecifier | ts.ExportSpecifier;

export interface ModuleGraph {
  source: ts.SourceFile;
  parts: Part[];
  /** The top-level part that declares what `id` names, if any. */
  partOf: (id: ts.Identifier) => Part | undefined;
  /** The top-level parts `part` reads, at run time, leaving out what the `skipped` nodes read. */
  uses: (part: Part, skipped?: ReadonlySet<ts.Node>) => Set<Part>;
  /** The top-level parts read inside `node` (an expression within a part). */
  reads: (node: ts.Node) => Set<Part>;
}

const NONE: ReadonlySet<ts.Node> = new Set();

const SCRIPT_KINDS: Record<string, ts.ScriptKind> = {
  ".tsx": ts.ScriptKind.TSX,
  ".jsx": ts.ScriptKind.JSX,
  ".js": ts.ScriptKind.JS,
  ".mjs": ts.ScriptKind.JS,
  ".cjs": ts.ScriptKind.JS,
};

export function moduleGraph(file: string, code: string): ModuleGraph {
  const extension = /\.[cm]?[jt]sx?$/.exec(file)?.[0] ?? ".ts";
  // One name the checker's host knows, whatever the file's path.
  const name = `/module${extension}`;
  const source = ts.createSourceFile(
    name,
    code,
    ts.ScriptTarget.Latest,
    true,
    SCRIPT_KINDS[extension] ?? ts.ScriptKind.TS,
  );
  // Made on the first question: most modules have nothing of the worker's to ask about.
  let checker: ts.TypeChecker | undefined;
  const parts: Part[] = [];
  /** Each top-level declaration (a function, a variable, an import's binding) -> its part. */
  const declaredBy = new Map<ts.Node, Part>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.name) add(clause, clause);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) add(bindings, bindings);
      if (bindings && ts.isNamedImports(bindings)) bindings.elements.forEach((el) => add(el, el));
      if (!clause.name && !bindings) parts.push(statement);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      parts.push(...statement.exportClause.elements);
    } else {
      parts.push(statement);
      if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement))
        declaredBy.set(statement, statement);
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          declaredBy.set(declaration, statement);
          bindingElements(declaration.name).forEach((element) => declaredBy.set(element, statement));
        }
      }
    }
  }
  function add(binding: Part, declaration: ts.Node) {
    parts.push(binding);
    declaredBy.set(declaration, binding);
  }

  const partOf = (id: ts.Identifier): Part | undefined => {
    checker ??= checkerOf(source);
    const parent = id.parent;
    const symbol =
      ts.isShorthandPropertyAssignment(parent) && parent.name === id
        ? checker.getShorthandAssignmentValueSymbol(parent)
        : ts.isExportSpecifier(parent)
          ? checker.getExportSpecifierLocalTargetSymbol(parent)
          : checker.getSymbolAtLocation(id);
    for (const declaration of symbol?.declarations ?? []) {
      const part = declaredBy.get(declaration);
      if (part) return part;
    }
    return undefined;
  };
  /** The top-level parts read in `roots` (`self` left out), not inside `skipped` nodes. */
  function collect(roots: ts.Node[], self: Part | undefined, skipped: ReadonlySet<ts.Node>): Set<Part> {
    const into = new Set<Part>();
    const visit = (node: ts.Node): void => {
      if (skipped.has(node)) return;
      // Types are erased: what a type names is not read at run time (`typeof loader`). A class's
      // `extends` is an expression, though TypeScript files it with the types.
      if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
      if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      if (ts.isIdentifier(node)) {
        const used = partOf(node);
        if (used && used !== self) into.add(used);
      }
      node.forEachChild(visit);
    };
    roots.forEach(visit);
    return into;
  }
  const caches = new Map<ReadonlySet<ts.Node>, Map<Part, Set<Part>>>();
  function uses(part: Part, skipped = NONE): Set<Part> {
    let cache = caches.get(skipped);
    if (!cache) caches.set(skipped, (cache = new Map()));
    let found = cache.get(part);
    if (found) return found;
    if (ts.isExportSpecifier(part)) found = collect([part.propertyName ?? part.name], part, skipped);
    else if (isImportPart(part)) found = new Set();
    else found = collect([part], part, skipped);
    cache.set(part, found);
    return found;
  }
  const reads = (node: ts.Node) => collect([node], undefined, NONE);
  return { source, parts, partOf, uses, reads };
}

/** A part's name, for a message. */
export function nameOf(part: Part, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(part) || ts.isClassDeclaration(part)) && part.name) return part.name.text;
  if (ts.isVariableStatement(part))
    return part.declarationList.declarations.map((d) => d.name.getText()).join(", ");
  if (ts.isExportSpecifier(part)) return `export { ${part.getText()} }`;
  return `line ${source.getLineAndCharacterOfPosition(part.getStart()).line + 1}`;
}

export function isImportPart(part: Part): part is ts.ImportClause | ts.NamespaceImport | ts.ImportSpecifier {
  return ts.isImportClause(part) || ts.isNamespaceImport(part) || ts.isImportSpecifier(part);
}

/** Every binding element of a destructuring pattern, nested ones included. */
export function bindingElements(name: ts.BindingName): ts.BindingElement[] {
  if (ts.isIdentifier(name)) return [];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : [element, ...bindingElements(element.name)],
  );
}

/** A checker over this one module: no library, no imports followed (only its own names matter). */
function checkerOf(source: ts.SourceFile): ts.TypeChecker {
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === source.fileName ? source : undefined),
    getDefaultLibFileName: () => "/lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => name === source.fileName,
    readFile: () => undefined,
  };
  const options = { noLib: true, noResolve: true, allowJs: true, jsx: ts.JsxEmit.Preserve, types: [] };
  return ts.createProgram([source.fileName], options, host).getTypeChecker();
}
