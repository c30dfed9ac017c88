/** The WebSocket subprotocol of the MCP upgrade: the door probes ask for it, the reference server grants it. */
export const SUBPROTOCOL = 'mcp.v1';
