import { isCompetitionKey } from './competitions.ts';

/** Public ids have the form `<sport_key>:<uuid>` (section 2.1); the store keeps the bare uuid. */
export interface PublicId {
  competition: string | null;
  uuid: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function formatPublicId(competition: string, uuid: string): string {
  return `${competition}:${uuid}`;
}

/**
 * Reads `<sport_key>:<uuid>` or a bare uuid. Returns null for anything else, including a prefix that
 * is not a competition key, so callers answer 404 rather than guess.
 */
export function parsePublicId(value: string): PublicId | null {
  const colon = value.indexOf(':');
  if (colon === -1) return isUuid(value) ? { competition: null, uuid: value.toLowerCase() } : null;
  const prefix = value.slice(0, colon);
  const uuid = value.slice(colon + 1);
  if (!isCompetitionKey(prefix) || !isUuid(uuid)) return null;
  return { competition: prefix, uuid: uuid.toLowerCase() };
}

/** A Jai Alai card id (route 16): `<prefix>:<YYYY-MM-DD>_<text>`, the prefix without a colon. */
const CARD_ID = /^([A-Za-z0-9_-]+):(\d{4})-(\d{2})-(\d{2})_([A-Za-z0-9][A-Za-z0-9._-]*)$/;

export function isJaiAlaiCardId(value: string): boolean {
  const match = CARD_ID.exec(value);
  if (!match) return false;
  const [, , y, m, d] = match;
  const date = new Date(`${y}-${m}-${d}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === `${y}-${m}-${d}`;
}

/**
 * The card a Jai Alai match is on when the feed does not name one: the competition key, the match's
 * start date (UTC) and its venue, as `jaialai:2026-11-21_dania-beach`.
 */
export function deriveJaiAlaiCardId(competition: string, startDate: string, location: string | null): string {
  const text = (location ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `${competition}:${startDate.slice(0, 10)}_${text || 'card'}`;
}
