// The few Node.js APIs (Node 18.14 and later) used here, declared so that
// `typescript` stays the only dev dependency (no @types/node).

declare class Buffer extends Uint8Array {
  static concat(list: readonly Uint8Array[], totalLength?: number): Buffer;
  toString(encoding?: 'utf8'): string;
  subarray(start?: number, end?: number): Buffer;
}

interface NodeWritable {
  write(chunk: string, callback?: (err?: Error | null) => void): boolean;
}

interface NodeReadable {
  pipe<T>(destination: T): T;
}

declare const process: {
  readonly stdin: NodeReadable;
  readonly stdout: NodeWritable;
  readonly stderr: NodeWritable;
  exit(code?: number): never;
};

declare module 'node:buffer' {
  /** Whether the bytes are well-formed UTF-8 (surrogates encoded as bytes are not). */
  export function isUtf8(input: Uint8Array): boolean;
}

declare module 'node:stream' {
  export interface TransformOptions {
    readableObjectMode?: boolean;
    transform(this: Transform, chunk: Buffer, encoding: string, callback: (error?: Error | null) => void): void;
    flush?(this: Transform, callback: (error?: Error | null) => void): void;
  }
  export class Transform implements NodeReadable {
    constructor(options: TransformOptions);
    push(chunk: unknown): boolean;
    pipe<T>(destination: T): T;
  }
}

declare module 'node:readline' {
  export interface Interface {
    on(event: 'line', listener: (line: string) => void): this;
    on(event: 'close', listener: () => void): this;
    close(): void;
  }
  export function createInterface(options: { input: NodeReadable; terminal?: boolean; crlfDelay?: number }): Interface;
}

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;
