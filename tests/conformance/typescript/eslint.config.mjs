// typescript-eslint's strictest shared configs, unchanged, over the generated
// TypeScript: build.sh runs it through check.mjs on the committed file, every
// golden and their clients (on the program of the pinned tsc's check), and
// through lint.sh on the runtime template. By hand: tests/conformance/typescript/
// lint.sh FILE..., or, from the repository root, node_modules/.bin/eslint
// --config tests/conformance/typescript/eslint.config.mjs on the files that
// tsconfig.json (beside this file, the type information) lists.
import tseslint from "typescript-eslint";

export default tseslint.config(
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: `${import.meta.dirname}/tsconfig.json`,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // The template's private helpers are used by the generated code around
    // it; each generated file is linted with this rule on (and tsc's
    // --noUnusedLocals), after codegen dropped the helpers it does not use.
    files: ["**/typescript/runtime.ts"],
    rules: { "@typescript-eslint/no-unused-vars": "off" },
  },
);
