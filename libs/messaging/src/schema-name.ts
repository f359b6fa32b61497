const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names end up in SQL text, so only plain identifiers are accepted. */
export function quoteSchema(schema: string): string {
  if (!schemaName.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  return `"${schema}"`;
}
