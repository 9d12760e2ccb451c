import type { Job } from '@cronbeam/shared/jobs/job-types';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { StatusBadge } from '../jobs/status-badge';
import { CopyButton } from '../ui/copy-button';
import { formatUtc } from '../ui/format';

const column = createColumnHelper<Job>();

const COLUMNS = [
  column.accessor('job_id', {
    header: 'Job ID',
    size: 170,
    cell: (info) => (
      <span className="id-cell">
        <span className="mono truncate" title={info.getValue()}>
          {info.getValue().slice(0, 8)}
        </span>
        <CopyButton value={info.getValue()} label={`Copy job ID of ${info.row.original.name}`} />
      </span>
    ),
  }),
  column.accessor('name', { header: 'Name', size: 180 }),
  column.accessor('url', { header: 'Job URL', size: 260, cell: (info) => <span className="truncate" title={info.getValue()}>{info.getValue()}</span> }),
  column.accessor('status', { header: 'Status', size: 120, cell: (info) => <StatusBadge status={info.getValue()} /> }),
  column.accessor('method', { header: 'Method', size: 90, cell: (info) => <span className="method">{info.getValue()}</span> }),
  column.accessor('next_run_at', { header: 'Next Run', size: 210, cell: (info) => formatUtc(info.getValue()) }),
];

/** The first jobs in a table whose columns the user can widen or narrow by dragging their edges. */
export function RecentActivityTable({ jobs }: { jobs: Job[] }) {
  const table = useReactTable({ data: jobs, columns: COLUMNS, getCoreRowModel: getCoreRowModel(), columnResizeMode: 'onChange' });
  return (
    <div className="table-scroll">
      <table className="data-table resizable" style={{ width: table.getTotalSize() }} aria-label="Recent Activity">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} style={{ width: header.getSize() }} scope="col">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                  <span
                    className={header.column.getIsResizing() ? 'resizer resizing' : 'resizer'}
                    onMouseDown={header.getResizeHandler()}
                    onTouchStart={header.getResizeHandler()}
                    role="separator"
                    aria-orientation="vertical"
                    aria-label={`Resize ${String(header.column.columnDef.header)} column`}
                  />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} style={{ width: cell.column.getSize() }}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
