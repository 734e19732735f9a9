import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import {
  CardAnswer,
  CardCreated,
  CardPath,
  CardsAnswer,
  CardsQuery,
  CreateCard,
  CustomerCardsPath,
  CustomerCardsQuery,
  UpdateCard,
} from './cards.schemas.js';
import type { CardsService } from './cards.service.js';

/**
 * Cards are read and changed in both interfaces (a customer only its own cards); the OpenAPI
 * file creates them only in the enterprise one.
 */
export function cardsRoutes(cards: CardsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/cards',
      interfaces: BOTH,
      query: CardsQuery,
      answer: CardsAnswer,
      handle: ({ query }, context) => cards.list(query, context),
    }),
    endpoint({
      method: 'post',
      path: '/cards',
      interfaces: ENTERPRISE,
      status: 201,
      body: CreateCard,
      answer: CardCreated,
      handle: ({ body }) => cards.create(body),
      offline: { kind: 'cards.create', makes: 'cards', run: ({ body }) => void cards.create(body) },
    }),
    endpoint({
      method: 'get',
      path: '/cards/:card_id',
      interfaces: BOTH,
      params: CardPath,
      answer: CardAnswer,
      handle: ({ params }, context) => cards.get(params.card_id, context),
    }),
    endpoint({
      method: 'put',
      path: '/cards/:card_id',
      interfaces: BOTH,
      status: 204,
      params: CardPath,
      body: UpdateCard,
      handle: ({ params, body }, context) => cards.update(params.card_id, body, context),
      offline: { kind: 'cards.update', makes: 'cards', run: ({ params, body }, context) => cards.update(params.card_id, body, context) },
    }),
    endpoint({
      method: 'get',
      path: '/customers/:customer_id/cards',
      interfaces: BOTH,
      params: CustomerCardsPath,
      query: CustomerCardsQuery,
      answer: CardsAnswer,
      handle: ({ params, query }, context) => cards.listOfCustomer(params.customer_id, query, context),
    }),
  ];
}
