import { NodeOperationError, type IExecuteFunctions, type INodeListSearchResult, type INodeParameterResourceLocator, type INodeProperties, type INodePropertyOptions } from 'n8n-workflow';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** What differs between the pickers of jobs and monitors. */
interface LocatorText {
  /** "Job", "Monitor": the field's label and the word in its messages. */
  noun: string;
  /** The parameter name the operations read. */
  name: string;
  searchListMethod: string;
  namePlaceholder: string;
  nameHint: string;
}

/** A resource locator for one of the account's jobs or monitors: picked from a searchable list, typed by name, or by ID. */
export function accountItemLocator(text: LocatorText): INodeProperties {
  const lower = text.noun.toLowerCase();
  return {
    displayName: text.noun,
    name: text.name,
    type: 'resourceLocator',
    default: { mode: 'list', value: '' },
    required: true,
    description: `The ${lower} to act on`,
    modes: [
      {
        displayName: 'From List',
        name: 'list',
        type: 'list',
        placeholder: `Select a ${lower}...`,
        typeOptions: { searchListMethod: text.searchListMethod, searchable: true },
      },
      { displayName: 'By Name', name: 'name', type: 'string', placeholder: text.namePlaceholder, hint: text.nameHint },
      {
        displayName: 'By ID',
        name: 'id',
        type: 'string',
        placeholder: 'e.g. 3f1c2a7e-1d2b-4c5d-8e9f-0a1b2c3d4e5f',
        validation: [{ type: 'regex', properties: { regex: UUID_PATTERN, errorMessage: `Not a valid ${lower} ID` } }],
      },
    ],
  };
}

/** The entries of a "From List" picker: names containing what was typed (ignoring case), sorted by name. */
export function searchResults<T extends { name: string }>(items: T[], filter: string | undefined, idOf: (item: T) => string): INodeListSearchResult {
  const needle = (filter ?? '').trim().toLowerCase();
  return {
    results: items
      .filter((item) => !needle || item.name.toLowerCase().includes(needle))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((item) => ({ name: item.name, value: idOf(item) })),
  };
}

/** The entries of a trigger's multi-select picker: every item by name, with a hint of what it does. */
export function pickerOptions<T extends { name: string }>(items: T[], idOf: (item: T) => string, describe: (item: T) => string): INodePropertyOptions[] {
  return items.sort((a, b) => a.name.localeCompare(b.name)).map((item) => ({ name: item.name, value: idOf(item), description: describe(item) }));
}

/** What a locator parameter holds: its mode and trimmed value; an empty one is refused naming the noun. */
export function locatorValue(context: IExecuteFunctions, parameter: string, noun: string, itemIndex: number): { byName: boolean; value: string } {
  const locator = context.getNodeParameter(parameter, itemIndex) as INodeParameterResourceLocator;
  const value = String(locator?.value ?? '').trim();
  if (!value) throw new NodeOperationError(context.getNode(), `${noun} is required: pick one from the list, or give its name or ID`, { itemIndex });
  return { byName: locator.mode === 'name', value };
}
