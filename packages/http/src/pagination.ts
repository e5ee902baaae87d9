// The pagination parameters are part of the wire contract; services import them from here too.
export { PAGE_LIMIT, zCursorParam, zLimit } from '@partner/contracts';
