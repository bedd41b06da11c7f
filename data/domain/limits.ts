/**
 * Per-visitor limits, shared by the API's validation and the islands (this module has no
 * dependencies, so islands import it without bundling zod). Errors state them.
 */
export const favoriteLimit = 200;
export const activeAlertLimit = 50;
export const maxNotesLength = 500;
/** The highest alert target accepted, in pounds. */
export const maxTargetPounds = 100_000;
