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
