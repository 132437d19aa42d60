/** The API's data types under their own names, from the types generated from the OpenAPI documents (src/generated/). */
import type { components as AccountComponents } from './generated/account.ts';
import type { components as MessagesComponents } from './generated/messages.ts';
import type { components as PetsComponents } from './generated/pets.ts';

type PetsSchemas = PetsComponents['schemas'];
type MessagesSchemas = MessagesComponents['schemas'];
type AccountSchemas = AccountComponents['schemas'];

/** An animal of the store. */
export type Pet = PetsSchemas['Pet'];
/** An animal to add: `name` and `categoryId`, and `status` (`available` when omitted). */
export type NewPet = PetsSchemas['NewPet'];
/** `available`, `pending` or `sold`. */
export type PetStatus = PetsSchemas['PetStatus'];
/** A submitted message, `queued` once stored. */
export type Message = MessagesSchemas['Message'];
/** One of an account's API keys, without the key itself. */
export type AccountKey = AccountSchemas['AccountKey'];
/** An account's keys and its limits. */
export type AccountKeyList = AccountSchemas['AccountKeyList'];
/** A key just created: its record and, this once, the key (`key`). */
export type CreatedAccountKey = AccountSchemas['CreatedAccountKey'];
