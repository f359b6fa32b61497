import type { ReactNode } from 'react';
import { Table, type TableRootProps, type TableScrollAreaProps } from '@chakra-ui/react';
import { TableScrollArea } from './TableScrollArea';

/** A column: its header text, or the header with its alignment and width. */
export type DataColumn = ReactNode | { header: ReactNode; textAlign?: 'center' | 'end'; w?: string };

const isColumnObject = (column: DataColumn): column is Exclude<DataColumn, ReactNode> => typeof column === 'object' && column !== null && 'header' in column;

interface HeadedTableProps extends Omit<TableRootProps, 'children'> {
  headers: DataColumn[];
  /** The body's rows. */
  children: ReactNode;
}

/** A small table: one header row of column names, then the rows given. */
export function HeadedTable({ headers, children, ...rootProps }: HeadedTableProps) {
  return (
    <Table.Root size="sm" {...rootProps}>
      <Table.Header>
        <Table.Row>
          {headers.map((column, i) =>
            isColumnObject(column) ? (
              <Table.ColumnHeader key={i} textAlign={column.textAlign} w={column.w}>
                {column.header}
              </Table.ColumnHeader>
            ) : (
              <Table.ColumnHeader key={i}>{column}</Table.ColumnHeader>
            ),
          )}
        </Table.Row>
      </Table.Header>
      <Table.Body>{children}</Table.Body>
    </Table.Root>
  );
}

interface DataTableProps extends Omit<TableScrollAreaProps, 'children'> {
  /** Names both the scrolling region and the table. */
  label: string;
  headers: DataColumn[];
  /** The body's rows. */
  children: ReactNode;
}

/** A {@link HeadedTable} named by its label, in its keyboard-scrollable region of the same name. */
export function DataTable({ label, headers, children, ...scrollProps }: DataTableProps) {
  return (
    <TableScrollArea label={label} {...scrollProps}>
      <HeadedTable aria-label={label} headers={headers}>
        {children}
      </HeadedTable>
    </TableScrollArea>
  );
}
