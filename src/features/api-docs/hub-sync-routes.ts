/**
 * The hub's sync protocol under /sync/v1 (src/sync/hub/hub-routes.ts), for the API document of a
 * hub: what stores call with their node credentials, never an integrator.
 */
import { z } from 'zod';
import type { PlainRoute } from '../../http/openapi.js';
import { ServedOriginalBill } from '../checkout/original-bills.js';
import {
  CALLER_ADDRESS_HEADER,
  ChangesPage,
  ChangesQuery,
  OriginalBillQuery,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  PushRequest,
  PushResponse,
  ReplayedCommands,
  ReplayedResults,
  SCHEMA_HEADER,
  SnapshotQuery,
} from '../../sync/protocol/protocol.js';

const TAG = 'Sync protocol (hub, store to hub)';
const VERSION_ERRORS = [400, 401, 409];

/** Every call says which protocol and schema version the store speaks; the hub serves its own schema and the one before. */
const VersionHeaders = z.object({
  [PROTOCOL_HEADER]: z.literal(String(PROTOCOL_VERSION)),
  [SCHEMA_HEADER]: z.string().regex(/^\d+$/).meta({ description: "The store's schema version" }),
});

export const HUB_SYNC_ROUTES: PlainRoute[] = [
  {
    method: 'post',
    path: '/sync/v1/commands',
    summary: "A store's outbox batch: each command applied once, answered one result each",
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders,
    body: PushRequest,
    answers: { 200: { description: 'A result per command, rejected ones with their reason', mediaType: 'application/json', schema: PushResponse } },
    errors: [...VERSION_ERRORS, 413, 429, 503],
  },
  {
    method: 'post',
    path: '/sync/v1/replay',
    summary:
      "A store's acknowledged commands a hub restored from a backup lost, sent again: each run as a pushed one, outside the store's sequence; one naming what the hub does not hold yet answered waiting unless final",
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders,
    body: ReplayedCommands,
    answers: { 200: { description: 'One result a command', mediaType: 'application/json', schema: ReplayedResults } },
    errors: [...VERSION_ERRORS, 413, 429, 503],
  },
  {
    method: 'get',
    path: '/sync/v1/changes',
    summary: 'A page of the change feed after a position, as far as the store holds',
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders,
    query: ChangesQuery,
    answers: { 200: { description: 'The page', mediaType: 'application/json', schema: ChangesPage } },
    errors: [...VERSION_ERRORS, 410, 429],
  },
  {
    method: 'get',
    path: '/sync/v1/original-bill',
    summary: "The bill a return at one of the node's stores names, without its customer, a limited number a day",
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders,
    query: OriginalBillQuery,
    answers: {
      200: {
        description: 'The purchase with its lines, prices, points and credit, and no customer',
        mediaType: 'application/json',
        schema: ServedOriginalBill,
      },
    },
    errors: [...VERSION_ERRORS, 403, 404, 429],
  },
  {
    method: 'get',
    path: '/sync/v1/history/:api_path',
    summary: 'A history read of the API (purchases, points, events, orders, reservations) a store asks on behalf of its caller',
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders,
    params: z.object({ api_path: z.string().meta({ description: 'The interface base path and the path below it, with its query string' }) }),
    answers: { 200: { description: 'The API answer', mediaType: 'application/json' } },
    errors: [...VERSION_ERRORS, 429],
  },
  {
    method: 'post',
    path: '/sync/v1/sessions/:api_path',
    summary: 'A customer-app login a store asks the hub to make for the token it authenticated: a session of the chain',
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders.extend({
      [CALLER_ADDRESS_HEADER]: z
        .string()
        .optional()
        .meta({ description: "The caller's IP address as the store saw it; failed logins are throttled by it, within the store" }),
    }),
    params: z.object({ api_path: z.string().meta({ description: 'The interface base path and the login path below it' }) }),
    answers: { 200: { description: 'The API answer', mediaType: 'application/json' } },
    errors: VERSION_ERRORS,
  },
  {
    method: 'get',
    path: '/sync/v1/snapshot',
    summary: "Every current row the store's scopes hold, at a feed position: a header line, then each table's rows, one a line",
    tag: TAG,
    nodeCredentials: true,
    headers: VersionHeaders,
    query: SnapshotQuery,
    answers: {
      200: {
        description:
          'NDJSON: a SnapshotHeader; per table, in the `columns` format, a SnapshotTable line and a JSON array of values per row, or in the `rows` format `{entity, row}` per row; then `{"end": true}`',
        mediaType: 'application/x-ndjson',
      },
    },
    errors: [...VERSION_ERRORS, 429, 503],
  },
];
