/**
 * Tables that stay on the node that wrote them (src/sync/CONTEXT.md): bearer sessions, node
 * secrets, password-setup secrets. They are never replicated, so the hub's feed does not
 * record their changes.
 */
export const NODE_LOCAL: ReadonlySet<string> = new Set(['user_sessions', 'nodes', 'node_stores', 'password_setup_requests']);
