import { createContext, useContext, type HTMLAttributes, type TdHTMLAttributes, type ThHTMLAttributes } from 'react';
import { cn } from '../../lib/utils.ts';

/** True when the rows become labelled cards on narrow screens. */
const StackedContext = createContext(false);

/**
 * A data table (give it a min-width class, e.g. md:min-w-[48rem], so that its
 * columns stay readable). It scrolls sideways when it must; the scroll area
 * is focusable and named, so keyboard users can scroll it with the arrow keys.
 * With `stacked`, each row becomes a card below the md breakpoint, every cell
 * headed by its column's `label`; explicit roles keep it a table for screen
 * readers, since changing the CSS display of table elements can drop their semantics.
 */
export function Table({ label, className, stacked = false, ...props }: HTMLAttributes<HTMLTableElement> & { label: string; stacked?: boolean }) {
  return (
    <StackedContext.Provider value={stacked}>
      <div
        role="region"
        aria-label={label}
        tabIndex={0}
        className={cn(
          'overflow-x-auto rounded-xl border border-slate-200 bg-white',
          stacked && 'max-md:overflow-visible max-md:border-0 max-md:bg-transparent',
        )}
      >
        <table
          role={stacked ? 'table' : undefined}
          className={cn('w-full border-collapse text-left text-sm', stacked && 'max-md:block', className)}
          {...props}
        />
      </div>
    </StackedContext.Provider>
  );
}

export function TableHead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  const stacked = useContext(StackedContext);
  return (
    <thead
      role={stacked ? 'rowgroup' : undefined}
      className={cn('bg-slate-50 text-xs uppercase tracking-wide text-slate-500', stacked && 'max-md:sr-only', className)}
      {...props}
    />
  );
}

export function TableBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  const stacked = useContext(StackedContext);
  return (
    <tbody
      role={stacked ? 'rowgroup' : undefined}
      className={cn('divide-y divide-slate-100', stacked && 'max-md:flex max-md:flex-col max-md:gap-3 max-md:divide-y-0', className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  const stacked = useContext(StackedContext);
  return (
    <tr
      role={stacked ? 'row' : undefined}
      className={cn(
        'align-top',
        stacked &&
          'max-md:grid max-md:grid-cols-2 max-md:gap-x-4 max-md:rounded-xl max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-3 max-md:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TableHeaderCell({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  const stacked = useContext(StackedContext);
  return <th scope="col" role={stacked ? 'columnheader' : undefined} className={cn('px-3 py-2 font-semibold', className)} {...props} />;
}

/** `label` repeats the column header above the cell's content when the row is a card; `wide` cells take the card's full width. */
export function TableCell({ className, label, wide = false, ...props }: TdHTMLAttributes<HTMLTableCellElement> & { label?: string; wide?: boolean }) {
  const stacked = useContext(StackedContext);
  return (
    <td
      role={stacked ? 'cell' : undefined}
      data-label={label}
      className={cn(
        'px-3 py-3 text-slate-800',
        stacked &&
          'max-md:block max-md:min-w-0 max-md:px-0 max-md:py-1.5 max-md:before:mb-0.5 max-md:before:block max-md:before:text-[0.7rem] max-md:before:font-semibold max-md:before:uppercase max-md:before:tracking-wide max-md:before:text-slate-500 max-md:before:content-[attr(data-label)]',
        stacked && wide && 'max-md:col-span-2',
        className,
      )}
      {...props}
    />
  );
}
