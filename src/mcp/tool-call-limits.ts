/** Most tool calls one HTTP request runs. */
export const TOOL_CALLS_PER_REQUEST = 10;
/** Most flood_map pictures one HTTP request draws. */
export const PICTURES_PER_REQUEST = 1;
