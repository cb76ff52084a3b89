/** A store that cannot be opened or brought up to date: where it is, and why, without a stack. */
export class StoreOpenError extends Error {
  readonly location: string;
  readonly reason: string;

  constructor(location: string, reason: string) {
    super(`cannot open the store at ${location}: ${reason}`);
    this.location = location;
    this.reason = reason;
    this.name = 'StoreOpenError';
  }
}
