/** Kafka topics, one per aggregate. An event's type starts with its topic's aggregate name. */
export enum Topic {
  User = 'dc.user',
  Organisation = 'dc.organisation',
  Record = 'dc.record',
  File = 'dc.file',
  Request = 'dc.request',
  Job = 'dc.job',
  Merge = 'dc.merge',
  Mail = 'dc.mail',
  Index = 'dc.index',
  Policy = 'dc.policy',
  Relation = 'dc.relation',
}

const topicByAggregate: Record<string, Topic> = {
  user: Topic.User,
  organisation: Topic.Organisation,
  record: Topic.Record,
  file: Topic.File,
  request: Topic.Request,
  job: Topic.Job,
  merge: Topic.Merge,
  mail: Topic.Mail,
  index: Topic.Index,
  policy: Topic.Policy,
  relation: Topic.Relation,
};

export function topicOf(eventType: string): Topic {
  const topic = topicByAggregate[eventType.split('.')[0]];
  if (!topic) throw new Error(`No topic for event type "${eventType}"`);
  return topic;
}
