// The parts of node:test and node:assert the unit tests use (no @types/node).

declare module 'node:test' {
  export function test(name: string, fn: () => void | Promise<void>): Promise<void>;
}

declare module 'node:assert/strict' {
  export function equal(actual: unknown, expected: unknown, message?: string): void;
  export function deepEqual(actual: unknown, expected: unknown, message?: string): void;
  export function rejects(promise: Promise<unknown>, expected?: RegExp): Promise<void>;
}
