/**
 * Market status and bet stop (issue 27): the status a market or priced outcome is published with,
 * and why it is not open. The operator's word (a `markets` or `odds` feed item's status) comes
 * first, then the results, then the feed's silence about a LIVE event.
 */

/**
 * Why a market or outcome is not OPEN: `OPERATOR` set it; `FEED_STALE`, the feed has been silent about
 * the LIVE event for FEED_STALE_SECONDS (a bet stop until its next message); `EVENT_STARTED`, the
 * event went LIVE; `SCORE_CHANGE`, a short suspension after a score; `RESULTED`, its result is in.
 */
export const STATUS_REASONS = ['OPERATOR', 'FEED_STALE', 'EVENT_STARTED', 'SCORE_CHANGE', 'RESULTED'] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

export type PublishedStatus = 'OPEN' | 'SUSPENDED' | 'CLOSED';

export interface StatusFacts {
  /** The stored (operator's) status of the market and of the outcome (OPEN for a market on its own). */
  marketStatus: string;
  marketStatusReason: string | null;
  oddStatus: string;
  oddStatusReason: string | null;
  /** The result deciding the market is in. */
  resulted: boolean;
  eventStatus: string;
  /** The feed has been silent about the event for FEED_STALE_SECONDS (domain/feed-health.ts). */
  feedStale: boolean;
}

export interface StatusWithReason {
  status: PublishedStatus;
  /** Set exactly when the status is not OPEN. */
  statusReason?: StatusReason;
}

const FINAL = new Set(['COMPLETED', 'CANCELLED']);

export function marketStatus(facts: StatusFacts): StatusWithReason {
  const operator = (own: string, reason: string | null, status: PublishedStatus) =>
    own === status ? ((reason as StatusReason | null) ?? 'OPERATOR') : null;
  const closedBy =
    operator(facts.oddStatus, facts.oddStatusReason, 'CLOSED') ??
    operator(facts.marketStatus, facts.marketStatusReason, 'CLOSED');
  if (closedBy) return { status: 'CLOSED', statusReason: closedBy };
  if (facts.resulted || FINAL.has(facts.eventStatus)) return { status: 'CLOSED', statusReason: 'RESULTED' };
  const suspendedBy =
    operator(facts.oddStatus, facts.oddStatusReason, 'SUSPENDED') ??
    operator(facts.marketStatus, facts.marketStatusReason, 'SUSPENDED');
  if (suspendedBy) return { status: 'SUSPENDED', statusReason: suspendedBy };
  if (facts.feedStale && facts.eventStatus === 'LIVE') return { status: 'SUSPENDED', statusReason: 'FEED_STALE' };
  return { status: 'OPEN' };
}
