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
  /** The top-level parts `part` reads, at run time. */
  uses: (part: Part) => Set<Part>;
}

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
  const cache = new Map<Part, Set<Part>>();
  function uses(part: Part): Set<Part> {
    let found = cache.get(part);
    if (found) return found;
    found = new Set();
    const into = found;
    const visit = (node: ts.Node): void => {
      // Types are erased: what a type names is not read at run time (`typeof loader`). A class's
      // `extends` is an expression, though TypeScript files it with the types.
      if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
      if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      if (ts.isIdentifier(node)) {
        const used = partOf(node);
        if (used && used !== part) into.add(used);
      }
      node.forEachChild(visit);
    };
    if (ts.isExportSpecifier(part)) visit(part.propertyName ?? part.name);
    else if (!isImportPart(part)) visit(part);
    cache.set(part, found);
    return found;
  }
  return { source, parts, uses };
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
