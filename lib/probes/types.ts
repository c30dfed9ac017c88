// The probe's input. Its output is the ProbeResult contract in lib/contract/probe-result.ts.

export interface ProbeTarget {
  /** The server's MCP endpoint on the upgrade extension, e.g. `https://mcp.example.com/mcp`. */
  url: string;
  /** Optional credential sent on every request of the probe; its value is redacted in transcripts. */
  credential?: { header: string; value: string } | null;
}
