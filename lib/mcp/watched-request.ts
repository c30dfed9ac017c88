// The reporter adapter's request watch (its `handle`, written for node:http) for a web-standard
// Request → Response handler such as a Next.js route: a request in flight keeps the session from
// idling out, a resume is reported with the status it got, and an answer stream the client
// cancelled before it ended is reported as a dropped stream.
import type { WatchedSession } from '@doorwatch/reporter/mcp-sdk';

export async function watchedRequest(
  session: WatchedSession<unknown> | undefined,
  request: Request,
  run: () => Promise<Response>,
): Promise<Response> {
  if (!session) return run();
  const lastEventId = request.method === 'GET' ? request.headers.get('last-event-id') || null : null;
  session.requestStarted();
  if (lastEventId !== null) session.resumeRequested(lastEventId);
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    session.requestEnded();
    throw err;
  }
  if (lastEventId !== null) session.resumeAnswered(lastEventId, response.status);
  if (!response.body || response.status >= 300) {
    session.requestEnded();
    return response;
  }
  const reader = response.body.getReader();
  let settled = false;
  const settle = (dropped: boolean) => {
    if (settled) return;
    settled = true;
    if (dropped) session.streamDropped('client_gone');
    session.requestEnded();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          settle(false);
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        settle(true);
        controller.error(err);
      }
    },
    async cancel(reason) {
      // The client went away (reset, EOF) while the answer was still being written.
      settle(true);
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
