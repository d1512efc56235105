// The two constants the runtime template (codegen/src/targets/typescript/
// runtime.ts) reads from the generated file around it, so that the template
// can be linted on its own.

/** The nesting limit (the schema's `max_depth`). */
declare const MAX_DEPTH: number;

/** The most containers around an open value, or -1 (see the generated file). */
declare const _OPEN_DEPTH: number;
