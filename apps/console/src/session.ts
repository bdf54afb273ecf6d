/**
 * Where the console keeps the master key: `sessionStorage` only (gone when the tab closes; never a cookie, never in a
 * URL, never `localStorage`).
 */
const STORAGE_KEY = 'switchyard.masterKey';

/** The signed-in master key, or null. */
export function loadMasterKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

/** Keeps the master key for this tab. */
export function saveMasterKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

/** Forgets the master key (sign out). */
export function clearMasterKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
