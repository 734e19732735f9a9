/** Event catalogue rows (hub master data the API only reads), written through the node's write path. */
import type { TestServer } from './server.js';

export interface EventPropertyFixture {
  id: string;
  name: string;
  data_type?: string;
  description?: string | null;
  items?: { id: string; name: string; state: number }[];
  is_required?: number;
  is_unique?: number;
}

export function insertEventProperty(server: TestServer, property: EventPropertyFixture): void {
  server.app.node.writes.write(null, (tx) =>
    tx.insert('event_properties', {
      id: property.id,
      name: property.name,
      description: property.description ?? null,
      data_type: property.data_type ?? 'string',
      items: JSON.stringify(property.items ?? []),
      is_required: property.is_required ?? 0,
      is_unique: property.is_unique ?? 0,
      state: 1,
    }),
  );
}

export function insertEventGroup(server: TestServer, name: string, textId: string): string {
  const id = server.app.node.newId();
  server.app.node.writes.write(null, (tx) => tx.insert('event_groups', { id, name, text_id: textId, state: 1 }));
  return id;
}
