import { currentLanguage } from './i18n/i18n.ts';

/*
 * Dates in the screens' language: Indian English, or Hindi with its month names, the same digits and a 24-hour
 * clock (Hindi's "am" and "pm" would be English words). Amounts keep en-IN grouping in both (src/shared/money.ts).
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormatOf(name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const language = currentLanguage();
  const key = `${language}:${name}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'hi' ? 'hi-IN' : 'en-IN', language === 'hi' && options.hour ? { ...options, hourCycle: 'h23' } : options);
    formats.set(key, format);
  }
  return format;
}

export function displayDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : dateFormatOf('dateTime', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(date);
}

const dateFormat = { format: (date: Date) => dateFormatOf('date', { day: 'numeric', month: 'short', year: 'numeric' }).format(date) };
const dateThisYearFormat = { format: (date: Date) => dateFormatOf('dateThisYear', { day: 'numeric', month: 'short' }).format(date) };
const timeFormat = { format: (date: Date) => dateFormatOf('time', { hour: '2-digit', minute: '2-digit' }).format(date) };

/** Short date for narrow tables: the year only when it is not the current one. */
export function displayDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.getFullYear() === new Date().getFullYear() ? dateThisYearFormat.format(date) : dateFormat.format(date);
}

export function displayTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
}
