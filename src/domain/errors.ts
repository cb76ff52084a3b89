/**
 * Failures the API reports to its callers. Every layer throws these; the HTTP layer renders them as
 * the specification's ServerErrorResponse (section 7) and nothing else reaches a client.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly metadata: Record<string, unknown>;

  constructor(statusCode: number, message: string, metadata: Record<string, unknown> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.metadata = metadata;
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, metadata?: Record<string, unknown>) => new ApiError(400, message, metadata);
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message: string, metadata?: Record<string, unknown>) => new ApiError(403, message, metadata);
export const notFound = (message: string, metadata?: Record<string, unknown>) => new ApiError(404, message, metadata);
export const unprocessable = (message: string, metadata?: Record<string, unknown>) =>
  new ApiError(422, message, metadata);
export const unavailable = (message: string) => new ApiError(503, message);
export const gone = (message: string, metadata?: Record<string, unknown>) => new ApiError(410, message, metadata);
