/**
 * Lists the functions longer than 120 lines in app/ (issue 29): React components (capitalised functions of a
 * .tsx file), tests, the seed, the schema and the migrations aside. Exits 1 when there is one; part of `npm run lint`.
 */
import ts from "typescript";
import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
const files = execSync("git ls-files 'app/**/*.ts' 'app/**/*.tsx' 'app/*.ts' 'app/*.tsx'", { encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !/\.test\.tsx?$/.test(f) && !/seed|schema\.ts|migrations\//.test(f));
const out: string[] = [];
for (const f of files) {
  const src = ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node, name: string) => {
    let nm = name;
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) nm = n.name?.getText() ?? "<anon>";
    if (ts.isVariableDeclaration(n)) nm = n.name.getText();
    if (ts.isPropertyAssignment(n)) nm = n.name.getText();
    if (
      ts.isFunctionDeclaration(n) ||
      ts.isFunctionExpression(n) ||
      ts.isArrowFunction(n) ||
      ts.isMethodDeclaration(n)
    ) {
      const a = src.getLineAndCharacterOfPosition(n.getStart()).line,
        b = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      const len = b - a + 1;
      const component = f.endsWith(".tsx") && /^[A-Z]/.test(nm);
      if (len > 120 && !component) out.push(`${len}\t${f}:${a + 1}\t${nm}`);
    }
    ts.forEachChild(n, (c) => visit(c, nm));
  };
  visit(src, "");
}
if (out.length > 0) {
  console.error(
    `Functions over 120 lines (split them into named steps):\n${out.sort((x, y) => parseInt(y) - parseInt(x)).join("\n")}`,
  );
  process.exit(1);
}
