import path from 'node:path';
import { allEventContracts, EventContract, Topic, TOPIC_USES } from '@dc/contracts';

/**
 * The table of Kafka topics in docs/operations.md ("Kafka topics an integration can consume"), made
 * from the same event contracts as docs/asyncapi.yaml, so the two cannot disagree on what a topic carries.
 */

export const OPERATIONS_PATH = path.resolve(__dirname, '../../docs/operations.md');
const START = '<!-- asyncapi:topics:start (generated from libs/contracts: npm run asyncapi; do not edit by hand) -->';
const END = '<!-- asyncapi:topics:end -->';

export function renderTopicTable(contracts: EventContract[] = allEventContracts()): string {
  const rows = (Object.keys(TOPIC_USES) as Topic[]).map((topic) => {
    const types = [...new Set(contracts.filter((contract) => contract.topic === topic).map((contract) => contract.type))].sort();
    if (types.length === 0) throw new Error(`No event contract publishes to ${topic}: define one or drop the topic`);
    return `| \`${topic}\` | ${types.map((type) => `\`${type}\``).join(', ')} | ${TOPIC_USES[topic]} |`;
  });
  return ['| topic | events | what an integration can do with them |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The markdown with the text between the table's markers replaced by a freshly generated table. */
export function withTopicTable(markdown: string, table: string = renderTopicTable()): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${OPERATIONS_PATH} lacks the markers ${START} ... ${END}`);
  return `${markdown.slice(0, start + START.length)}\n${table}\n${markdown.slice(end)}`;
}
