/** A construct id from a lower-camel name (`listPets` → `ListPets`), the one spelling used across the stack. */
export const constructIdOf = (name: string): string => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
