/**
 * The anonymous ids the browser makes (site/lib/browser/visitor.ts) and the only ones the
 * server accepts: `user_` / `session_` followed by exactly 24 random characters from a-z and 0-9.
 * No dependencies, so the browser bundle can share it.
 */
export const randomIdAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
export const randomIdLength = 24;
export const visitorIdPattern = /^user_[a-z0-9]{24}$/;
export const sessionIdPattern = /^session_[a-z0-9]{24}$/;
