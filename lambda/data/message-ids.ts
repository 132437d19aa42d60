import { ulid } from 'ulid';

/** Message ids are ULIDs: sortable by creation time, 80 random bits per millisecond, no coordination needed. */
export const newMessageId = (): string => ulid();
