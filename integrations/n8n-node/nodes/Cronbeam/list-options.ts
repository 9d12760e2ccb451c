import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** What differs between the Get Many operations' Return All, Limit and Filters fields. */
interface GetManyText {
  resource: string;
  operations: string[];
  /** Set where the API returns at most this many. */
  limitMax?: number;
  returnAllHint?: string;
  /** The Filters collection's Status choices; none: no Filters field. */
  statuses?: INodePropertyOptions[];
  statusDescription?: string;
}

/** Return All, Limit and (optionally) a Status filter, as n8n's Get Many operations show them. */
export function getManyFields(text: GetManyText): INodeProperties[] {
  const shown = { show: { resource: [text.resource], operation: text.operations } };
  const fields: INodeProperties[] = [
    {
      displayName: 'Return All',
      name: 'returnAll',
      type: 'boolean',
      default: false,
      description: 'Whether to return all results or only up to a given limit',
      ...(text.returnAllHint ? { hint: text.returnAllHint } : {}),
      displayOptions: shown,
    },
    {
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      typeOptions: { minValue: 1, ...(text.limitMax ? { maxValue: text.limitMax } : {}) },
      default: 50,
      description: 'Max number of results to return',
      displayOptions: { show: { ...shown.show, returnAll: [false] } },
    },
  ];
  if (!text.statuses) return fields;
  return [
    ...fields,
    {
      displayName: 'Filters',
      name: 'filters',
      type: 'collection',
      placeholder: 'Add Filter',
      default: {},
      displayOptions: { show: { resource: [text.resource], operation: ['getAll'] } },
      options: [{ displayName: 'Status', name: 'status', type: 'multiOptions', options: text.statuses, default: [], description: text.statusDescription }],
    },
  ];
}

/** "Return All" or the first "Limit" results, as n8n's Get Many operations do. */
export function limitResults<T>(context: IExecuteFunctions, results: T[], itemIndex: number): T[] {
  if (context.getNodeParameter('returnAll', itemIndex, false) as boolean) return results;
  return results.slice(0, context.getNodeParameter('limit', itemIndex, 50) as number);
}

/** The statuses picked in the Filters collection; none picked: all. */
export function statusFilter(context: IExecuteFunctions, itemIndex: number): string[] {
  return ((context.getNodeParameter('filters', itemIndex, {}) as IDataObject).status as string[] | undefined) ?? [];
}
