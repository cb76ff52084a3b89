/**
 * Reading array-valued query parameters in every encoding clients send (DESIGN decision 4):
 * repeated (`a=X&a=Y`), comma list (`a=X,Y`), `a[]=X`, and indexed `a[0]=X&a[1]=Y` (the provider's SDK).
 */
export function collectArrayParam(query: Record<string, unknown>, name: string): string[] | undefined {
  const values: Array<[number, string]> = [];
  let order = 0;
  const add = (raw: unknown, index: number) => {
    for (const item of Array.isArray(raw) ? raw : [raw]) {
      for (const part of String(item).split(',')) {
        const value = part.trim();
        if (value !== '') values.push([index, value]);
      }
    }
  };
  let found = false;
  for (const [key, raw] of Object.entries(query)) {
    if (key === name || key === `${name}[]`) {
      found = true;
      add(raw, 1_000_000 + order++);
      continue;
    }
    if (key.startsWith(`${name}[`) && key.endsWith(']')) {
      const index = key.slice(name.length + 1, -1);
      if (/^\d{1,6}$/.test(index)) {
        found = true;
        add(raw, Number(index));
      }
    }
  }
  if (!found) return undefined;
  // Indexed entries keep their index order; the other forms keep the order they were sent in.
  return [...new Set(values.sort((a, b) => a[0] - b[0]).map(([, value]) => value))];
}

/** Replaces an array parameter's raw encodings in a parsed query with one normalised array. */
export function normaliseArrayParam(query: Record<string, unknown>, name: string): Record<string, unknown> {
  const values = collectArrayParam(query, name);
  if (values === undefined) return query;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key !== name && !(key.startsWith(`${name}[`) && key.endsWith(']'))) out[key] = value;
  }
  out[name] = values;
  return out;
}
