import { exactPrice, formatPrice, type OddsFormat } from '../domain/odds-format.ts';

/**
 * A document with `price` added to every priced item in `format`, the document itself
 * when no format was asked for. A priced item is an object with decimal odds: `decimalOdds` (futures,
 * the stream), or `odds` beside `americanOdds` (event odds, team and Jai Alai outcomes, parlays).
 * The price is formatted from the exact price its `probability` implies when it carries one.
 * The input is not changed: read models and the change log share their objects.
 */
export function withPrices<T>(document: T, format: OddsFormat | undefined): T {
  return format === undefined ? document : (priced(document, format) as T);
}

function priced(value: unknown, format: OddsFormat): unknown {
  if (Array.isArray(value)) return value.map((item) => priced(item, format));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) out[name] = priced(field, format);
  const decimal =
    typeof out.decimalOdds === 'number'
      ? out.decimalOdds
      : typeof out.odds === 'number' && (typeof out.americanOdds === 'number' || typeof out.probability === 'number')
        ? out.odds
        : undefined;
  const probability = typeof out.probability === 'number' ? out.probability : undefined;
  if (decimal !== undefined) out.price = formatPrice(decimal, format, exactPrice(decimal, probability));
  return out;
}
