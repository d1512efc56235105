// The few Node.js APIs the end-to-end client uses, declared here so that the
// build needs nothing but the pinned tsc (no @types/node).

declare const process: {
  readonly env: { readonly [name: string]: string | undefined };
  readonly stdout: { write(text: string): boolean };
  exitCode: number | undefined;
};

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

declare module "node:child_process" {
  interface Readable {
    setEncoding(encoding: "utf8"): void;
    on(event: "data", listener: (chunk: string) => void): void;
    on(event: "end", listener: () => void): void;
  }
  interface Writable {
    write(text: string): boolean;
    end(): void;
  }
  interface ChildProcess {
    readonly stdin: Writable;
    readonly stdout: Readable;
    readonly exitCode: number | null;
    kill(): boolean;
    on(event: "exit", listener: (code: number | null, signal: string | null) => void): void;
    on(event: "error", listener: (error: Error) => void): void;
  }
  function spawn(command: string, args: readonly string[], options: { stdio: readonly string[] }): ChildProcess;
}
