/** The id the shell of a page with an id in its URL is prerendered with: next.config.js rewrites every id to it. */
export const SHELL_ID = "_";
