/** Where the public API lives, and the links its documents carry to one another. */
export const PUBLIC_PREFIX = '/api/v1/public';

export const heatScoresPath = (publicEventId: string, heatId: string) =>
  `${PUBLIC_PREFIX}/events/${publicEventId}/heats/${heatId}`;
export const participantsPath = (publicEventId: string) => `${PUBLIC_PREFIX}/events/${publicEventId}/participants`;
