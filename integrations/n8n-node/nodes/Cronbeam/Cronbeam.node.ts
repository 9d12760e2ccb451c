import {
  NodeApiError,
  NodeConnectionTypes,
  NodeOperationError,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  type JsonObject,
} from 'n8n-workflow';
import { searchJobs } from '../shared/jobs';
import { searchMonitors } from '../shared/monitors';
import { jobFields, jobOperations, logFields, logOperations, resourceProperty } from './descriptions';
import { monitorFields, monitorOperations } from './monitor-descriptions';
import { runOperation } from './operations';

export class Cronbeam implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Cronbeam',
    name: 'cronbeam',
    icon: { light: 'file:../../icons/cronbeam.svg', dark: 'file:../../icons/cronbeam.dark.svg' },
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Create, run, pause and inspect Cronbeam cron jobs, and ping and manage heartbeat monitors',
    defaults: { name: 'Cronbeam' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'cronbeamApi', required: true }],
    properties: [resourceProperty, jobOperations, logOperations, monitorOperations, ...jobFields, ...logFields, ...monitorFields],
  };

  methods = {
    listSearch: { searchJobs, searchMonitors },
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const output: INodeExecutionData[] = [];
    for (let i = 0; i < items.length; i += 1) {
      try {
        const resource = this.getNodeParameter('resource', i) as string;
        const operation = this.getNodeParameter('operation', i) as string;
        const result = await runOperation.call(this, resource, operation, i);
        for (const json of Array.isArray(result) ? result : [result]) output.push({ json, pairedItem: { item: i } });
      } catch (error) {
        if (this.continueOnFail()) {
          const failure: IDataObject = { error: (error as Error).message };
          const description = (error as { description?: unknown }).description;
          if (typeof description === 'string' && description) failure.description = description;
          output.push({ json: failure, pairedItem: { item: i } });
          continue;
        }
        // Both constructors hand back an error that already is of their class, so n8n's own errors pass through unchanged.
        if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject, { itemIndex: i });
        throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
      }
    }
    return [output];
  }
}
