import { useLayoutEffect, useState } from 'react';
import { prerenderedPage } from './prerendered-page.ts';

type Field = HTMLInputElement | HTMLTextAreaElement;
const FIELDS = 'input:not([type=hidden]),textarea';

function fieldsOf(element: Element | null | undefined): Field[] {
  return [...(element?.querySelectorAll<Field>(FIELDS) ?? [])];
}

/** The position of the copy's field that has the focus, or -1 (always, when the page is drawn at build time). */
function focusedFieldOfCopy(): number {
  if (typeof document === 'undefined') return -1;
  return fieldsOf(prerenderedPage()).findIndex((field) => field === document.activeElement);
}

/** Sets a field's value the way typing does, so that React and the form library see it. */
function typeInto(field: Field, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * For a form page the server may send already drawn (src/web/lib/prerendered-page.ts): once the live
 * page is in #root, what the visitor typed into the copy before the JavaScript ran moves into the
 * live fields (matched by position and type), the focus with it, and the copy goes.
 *
 * The focus is read when the copy goes: the first render can come long before it on a slow phone,
 * and a visitor who moved from the e-mail to the password meanwhile must go on typing in the
 * password. The live page's autofocus cannot have taken it, since #root is hidden while the copy
 * shows (styles.css); the focus at the first render is kept only for the case where it did.
 */
export function useHandOverPrerenderedForm(): void {
  const [focusedAtFirstRender] = useState(focusedFieldOfCopy);
  useLayoutEffect(() => {
    const copy = prerenderedPage();
    if (!copy) return;
    const focusedNow = focusedFieldOfCopy();
    const focused = focusedNow >= 0 ? focusedNow : focusedAtFirstRender;
    const typed = fieldsOf(copy);
    const live = fieldsOf(document.getElementById('root'));
    typed.forEach((field, index) => {
      const target = live[index];
      if (target?.type === field.type && field.value !== '' && target.value === '') typeInto(target, field.value);
    });
    copy.remove();
    if (focused >= 0) live[focused]?.focus();
  }, [focusedAtFirstRender]);
}
