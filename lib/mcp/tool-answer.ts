// How a tool answers: structured content (checked by the SDK against the tool's output schema) with a
// short text for clients that read only text; or an `isError` result carrying the same
// {"error": {"code", "message"}} the HTTP API answers with, never a stack trace.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, errorBody } from '@/lib/http/api-error';
import { databaseUnavailable } from '@/lib/http/database-unavailable';
import { storeErrorAnswer } from '@/lib/http/store-error-answer';
import { isRetryableDatabaseError } from '@/lib/db/database-errors';
import { StoreError } from '@/lib/store/store-error';
import { componentLogger } from '@/lib/log/logger';

export function toolAnswer(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

export function toolRefusal(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(code, message)) }] };
}

/** What a query or service threw, as the API would have answered it (its code and message). */
export function toolFailure(tool: string, thrown: unknown): CallToolResult {
  const err = thrown instanceof StoreError ? storeErrorAnswer(thrown) : thrown;
  if (err instanceof ApiError) return toolRefusal(err.code, err.message);
  if (isRetryableDatabaseError(err)) {
    const unavailable = databaseUnavailable(err, 'mcp');
    return toolRefusal(unavailable.code, unavailable.message);
  }
  componentLogger('mcp').error({ tool, err: err instanceof Error ? err.message.split('\n')[0].slice(0, 300) : String(err) }, 'tool failed');
  return toolRefusal('internal_error', 'Doorwatch failed to answer this tool call; see the server log.');
}
