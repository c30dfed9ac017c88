// @doorwatch/reporter/mcp-sdk: reports the sessions of a server built on the official MCP SDK
// (@modelcontextprotocol/sdk, StreamableHTTPServerTransport) to Doorwatch. No dependency on the SDK.
export { createMcpSdkAdapter, type McpSdkAdapter } from './adapter.js';
export { WatchedSession } from './watched-session.js';
export { OrdinalEventStore } from './event-store.js';
export type { EventStoreLike, McpSdkAdapterOptions, ReplayOutcome, TransportLike } from './types.js';
