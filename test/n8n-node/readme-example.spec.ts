import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeTypeDescription } from 'n8n-workflow';
import { Cronbeam } from '../../integrations/n8n-node/nodes/Cronbeam/Cronbeam.node';
import { CronbeamTrigger } from '../../integrations/n8n-node/nodes/CronbeamTrigger/CronbeamTrigger.node';

interface WorkflowNode {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, unknown>;
}

/** The README's example workflow must import into n8n as written: known node types, parameters and options. */
describe('README example workflow', () => {
  const readme = readFileSync(join(__dirname, '../../integrations/n8n-node/README.md'), 'utf8');
  const workflow = JSON.parse(/## Example workflow[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? 'null') as { nodes: WorkflowNode[]; connections: Record<string, unknown> };
  const descriptions: Record<string, INodeTypeDescription> = {
    'n8n-nodes-cronbeam.cronbeam': new Cronbeam().description,
    'n8n-nodes-cronbeam.cronbeamTrigger': new CronbeamTrigger().description,
  };

  it('uses only parameters and option values the nodes define', () => {
    const ours = workflow.nodes.filter((node) => node.type in descriptions);
    expect(ours.map((node) => node.type).sort()).toEqual(Object.keys(descriptions).sort());
    for (const node of ours) {
      const properties = descriptions[node.type].properties;
      expect(node.credentials).toEqual({ cronbeamApi: expect.anything() });
      for (const [name, value] of Object.entries(node.parameters)) {
        // n8n adds the poll schedule to every polling node itself.
        if (name === 'pollTimes') continue;
        const candidates = properties.filter((property) => property.name === name);
        expect(candidates.length).toBeGreaterThan(0);
        const options = candidates.flatMap((property) => (property.options ?? []).map((option) => ('value' in option ? option.value : undefined)));
        if (candidates[0].type === 'options') expect(options).toContain(value);
        if (candidates[0].type === 'multiOptions') for (const item of value as unknown[]) expect(options).toContain(item);
        if (candidates[0].type === 'resourceLocator') expect(candidates[0].modes?.map((mode) => mode.name)).toContain((value as { mode: string }).mode);
      }
    }
    for (const source of Object.keys(workflow.connections)) expect(workflow.nodes.map((node) => node.name)).toContain(source);
  });
});
