import { CodedError, ERRORS } from '../domain/errors.ts';

/** A store that cannot be opened or brought up to date: where it is, and why, without a stack. */
export class StoreOpenError extends CodedError {
  readonly location: string;
  readonly reason: string;

  constructor(location: string, reason: string) {
    super('STORE_CANNOT_OPEN', ERRORS.STORE_CANNOT_OPEN.message({ location, reason }));
    this.location = location;
    this.reason = reason;
    this.name = 'StoreOpenError';
  }
}
