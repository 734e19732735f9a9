import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import {
  CreditAnswer,
  CreditCreated,
  CreditPath,
  CreditsAnswer,
  CreditsQuery,
  DepositCredits,
  ReduceCredits,
  TransferCredits,
} from './credits.schemas.js';
import type { CreditsService } from './credits.service.js';

/** Credits are read in both interfaces and changed only in the enterprise one, as points are. */
export function creditsRoutes(credits: CreditsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      history: true,
      path: '/credits',
      interfaces: BOTH,
      query: CreditsQuery,
      answer: CreditsAnswer,
      handle: ({ query }, context) => credits.list(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/credits/:credit_id',
      interfaces: BOTH,
      params: CreditPath,
      answer: CreditAnswer,
      handle: ({ params }, context) => credits.get(params.credit_id, context),
    }),
    endpoint({
      method: 'post',
      path: '/credits/actions/deposit-credits',
      interfaces: ENTERPRISE,
      status: 201,
      body: DepositCredits,
      answer: CreditCreated,
      handle: ({ body }) => credits.deposit(body),
      offline: { kind: 'credits.deposit', makes: 'credit_records', run: ({ body }) => void credits.deposit(body) },
    }),
    endpoint({
      method: 'post',
      path: '/credits/actions/reduce-credits',
      interfaces: ENTERPRISE,
      status: 201,
      body: ReduceCredits,
      answer: CreditCreated,
      handle: ({ body }) => credits.reduce(body),
      offline: { kind: 'credits.reduce', makes: 'credit_records', run: ({ body }) => void credits.reduce(body) },
    }),
    endpoint({
      method: 'post',
      path: '/credits/actions/transfer-credits',
      interfaces: ENTERPRISE,
      status: 204,
      body: TransferCredits,
      handle: ({ body }) => credits.transfer(body),
      offline: { kind: 'credits.transfer', makes: 'credit_records', run: ({ body }) => credits.transfer(body) },
    }),
  ];
}
