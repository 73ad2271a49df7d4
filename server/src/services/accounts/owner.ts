// Whose records a call may see, for every service that serves both keys and the admin.

/** One key's records (its id), or (undefined) every key's, for the admin. */
export type Owner = string | undefined;
