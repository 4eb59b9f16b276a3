/** Where agents reach the service's tools over the Model Context Protocol. */
export const MCP_PATH = '/mcp';
