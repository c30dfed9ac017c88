import type { StoreError } from '@/lib/store/store-error';
import { ApiError } from './api-error';

const STATUS = { invalid: 400, conflict: 409, not_found: 404, unavailable: 503 } as const;

/** A store refusal as an API answer; what is unavailable now (a sealing key missing) is worth a retry later. */
export function storeErrorAnswer(err: StoreError): ApiError {
  return new ApiError(STATUS[err.kind], err.code, err.message, err.kind === 'unavailable' ? { 'retry-after': '30' } : {});
}
