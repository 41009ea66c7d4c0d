/**
 * Answers of lists are small pages: an assistant asks for the next with `cursor`. Apart from the
 * tools (which load at the first call to /mcp) as a call's cost is counted before that.
 */
export const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;
