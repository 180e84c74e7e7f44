import type { ReactNode } from 'react';

/** A captioned table with column headers that scrolls sideways on narrow screens; rows are the children. */
export function DataTable({
  caption,
  columns,
  className,
  children,
}: {
  caption: ReactNode;
  columns: string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className={className}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
