/**
 * Answers of lists are small pages: an assistant asks for the next with `cursor`. Kept apart from
 * the tools, which load at the first call to /mcp: the server counts a call's cost before that.
 */
export const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;
