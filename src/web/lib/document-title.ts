import { useEffect } from 'react';
import { PRODUCT_NAME } from '#shared/limits';

/** Sets the browser tab's title to "<page> · Rupeedesk" while the page is shown. */
export function useDocumentTitle(pageTitle: string): void {
  useEffect(() => {
    document.title = `${pageTitle} · ${PRODUCT_NAME}`;
  }, [pageTitle]);
}
