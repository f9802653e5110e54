import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** Shows a phone as its first 3 characters, four asterisks and its last 4, when longer than 7 characters. */
export function maskPhone(phone: string): string {
  if (phone.length <= 7) return phone;
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}

export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts[parts.length - 1]?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

/** Only same-site paths may be a post-login destination, so a crafted link cannot send the user elsewhere. */
export function safeNextPath(next: string | null | undefined, fallback = '/dashboard'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  // Browsers drop tabs and line breaks from URLs, so "/<tab>/evil.example" would become "//evil.example";
  // control characters and backslashes have no place in our own paths.
  if (/[\p{Cc}\\]/u.test(next)) return fallback;
  return next;
}

// Lives with the support feature, so the landing page can use it without pulling in tailwind-merge through cn().
export { supportChatUrl } from '../features/support/support-chat-url.ts';
