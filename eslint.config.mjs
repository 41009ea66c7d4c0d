// The project's lint rules (`npm run lint`, no warnings allowed); formatting is prettier's alone
// (`npm run format:check`). The set: typescript-eslint's `recommended`, plus the type-checked rules
// that catch lost promises (`no-floating-promises`, `no-misused-promises`, `await-thenable`).
// Not taken from `recommendedTypeChecked`: the `no-unsafe-*` family, since JSON answers, SQL rows
// and GraphQL results are `any` by nature here and are checked by tests and the OpenAPI document
// instead; `no-explicit-any` holds in src/ but not in test/, which reads those answers.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "dist-*/**", "node_modules/**", "coverage/**", "examples/**", "**/*.js", "**/*.mjs", "**/*.cjs"] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/await-thenable": "error",
      // `Services` is an empty interface that each module widens by declaration merging.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "always" }],
      // type-graphql takes resolver classes as `Function`.
      "@typescript-eslint/no-unsafe-function-type": "off",
      // A variable a closure reads before its one assignment cannot be const.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  { files: ["test/**/*.ts", "bench/**/*.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
);
