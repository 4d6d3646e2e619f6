// JSON text without the call stack: a JSON.stringify for deeply nested values.

/**
 * Writes a JSON value as JSON.stringify does, with `number` writing each
 * number, iteratively, so that content nested deeper than the call stack
 * allows is still written.
 */
export function writeJSON(value: unknown, number: (n: number) => string): string {
  const out: string[] = [];
  const stack: Array<{ items: unknown[]; names: string[] | undefined; next: number }> = [];
  const open = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        out.push(JSON.stringify(v));
        return;
      case 'number':
        out.push(number(v));
        return;
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return;
      case 'object':
        if (Array.isArray(v)) {
          out.push('[');
          stack.push({ items: v, names: undefined, next: 0 });
          return;
        }
        if (v !== null) {
          const o = v as Record<string, unknown>;
          const names = Object.keys(o).filter((name) => o[name] !== undefined);
          out.push('{');
          stack.push({ items: names.map((name) => o[name]), names, next: 0 });
          return;
        }
    }
    out.push('null');
  };
  open(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.items.length) {
      out.push(top.names === undefined ? ']' : '}');
      stack.pop();
      continue;
    }
    const i = top.next++;
    if (i > 0) out.push(',');
    if (top.names !== undefined) out.push(JSON.stringify(top.names[i]) + ':');
    open(top.items[i]);
  }
  return out.join('');
}
