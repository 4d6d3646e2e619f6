// JSON text out: JSON.stringify's, without the call stack and without losing
// numbers it cannot write (MSG-2).

/** A number as the wire writes it: ±Infinity (JSON.parse's `1e400`) as ±1e400, the same double (MSG-2). */
const wireNumber = (n: number): string => (Number.isFinite(n) ? JSON.stringify(n) : n > 0 ? '1e400' : '-1e400');

/**
 * Writes a JSON value as JSON.stringify does, without the call stack (content
 * may be nested deeper than it allows). An object found in `substitute` is
 * written as the value it maps to: a message the library got back is written
 * as the input message it stands for (MSG-2).
 */
export function serialize(value: unknown, substitute?: ReadonlyMap<object, unknown>): string {
  const out: string[] = [];
  const stack: Array<{ items: unknown[]; names: string[] | undefined; next: number }> = [];
  const open = (v: unknown): void => {
    if (substitute !== undefined && typeof v === 'object' && v !== null && substitute.has(v)) v = substitute.get(v);
    switch (typeof v) {
      case 'string':
        out.push(JSON.stringify(v));
        return;
      case 'number':
        out.push(wireNumber(v));
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
