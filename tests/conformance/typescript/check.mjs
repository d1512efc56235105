// The pinned TypeScript's strict check and typescript-eslint's type-checked
// lint of the same files, on one program: build.sh runs it (through
// `lint.sh --check`, which installs the tools first) on the frames files and
// the session clients. `tsc --noEmit` and `eslint` each built the
// program (parse, bind, check) on their own; here the compiler's program,
// whose diagnostics are tsc's, is the one the lint rules read their types
// from (parserOptions.programs), already checked.
//
//   tests/conformance/typescript/lint.sh --check FILE...
//
// The compiler options are tsconfig.json's beside this file (build.sh's
// strict flags, typed by the pinned @types/node), over exactly the files
// given. Prints tsc's diagnostics, then ESLint's findings; exits 1 on any.
// The runtime template is linted apart (lint.sh, with its stub), so that the
// stub's globals can hide no missing declaration here.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { ESLint } from "eslint";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const files = process.argv.slice(2).map((file) => resolve(file));
if (files.length === 0) {
  console.error("usage: node check.mjs FILE...");
  process.exit(2);
}

const configPath = resolve(here, "tsconfig.json");
const read = ts.readConfigFile(configPath, ts.sys.readFile);
if (read.error) {
  console.error(ts.formatDiagnostics([read.error], formatHost()));
  process.exit(2);
}
const config = ts.parseJsonConfigFileContent(
  { ...read.config, include: [], files },
  ts.sys,
  here,
  undefined,
  configPath,
);
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
});

const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  // As tsc prints them: with colour and context on a terminal, plain in a log.
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.error(format(diagnostics, formatHost()));
  console.error(`error: tsc ${ts.version} found ${diagnostics.length} problem(s) in the file(s) above`);
  process.exit(1);
}
console.error(`typescript: tsc ${ts.version} --strict passed on ${files.length} file(s)`);

const eslint = new ESLint({
  cwd: "/",
  overrideConfigFile: resolve(here, "eslint.config.mjs"),
  overrideConfig: { languageOptions: { parserOptions: { programs: [program], project: null } } },
});
const results = await eslint.lintFiles(files);
const findings = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
if (findings > 0) {
  const formatter = await eslint.loadFormatter("stylish");
  console.error(await formatter.format(results));
  console.error("error: typescript-eslint has findings in the file(s) above");
  process.exit(1);
}
console.error(`typescript: typescript-eslint found nothing in ${files.length} file(s)`);

function formatHost() {
  return { getCanonicalFileName: (name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" };
}
