import { endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import {
  AcceptPayment,
  AcceptPaymentAnswer,
  AssignCustomer,
  RecommendedBestRewards,
  RecommendedBestRewardsAnswer,
  SendPurchase,
  SendPurchaseAnswer,
} from './checkout.schemas.js';
import type { CheckoutService } from './checkout.service.js';
import type { PurchaseRecorder } from './purchase-recorder.service.js';

export function checkoutRoutes(checkout: CheckoutService, recorder: PurchaseRecorder): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/purchases/actions/recommended-best-rewards',
      interfaces: ENTERPRISE,
      cashDesk: true,
      reads: true,
      summary: 'The rewards a bill can use, best first',
      body: RecommendedBestRewards,
      answer: RecommendedBestRewardsAnswer,
      handle: ({ body }) => checkout.recommended(body),
    }),
    endpoint({
      method: 'post',
      path: '/purchases/actions/accept-payment',
      interfaces: ENTERPRISE,
      cashDesk: true,
      reads: true,
      summary: 'Prices a bill before payment: discounts, vouchers, points and credit used, points earned; stores nothing',
      body: AcceptPayment,
      answer: AcceptPaymentAnswer,
      handle: ({ body }) => checkout.acceptPayment(body),
    }),
    endpoint({
      method: 'post',
      path: '/purchases/actions/send-purchase',
      interfaces: ENTERPRISE,
      cashDesk: true,
      status: 201,
      summary: 'Records the paid bill: spends the vouchers, points and credit it names, earns points',
      body: SendPurchase,
      answer: SendPurchaseAnswer,
      handle: ({ body }) => recorder.sendNamingOriginal(body),
      // The hub holds every bill a cancellation may name: it reads the original itself.
      offline: { kind: 'purchases.send', makes: 'purchases', run: ({ body }) => void recorder.send(body) },
    }),
    endpoint({
      method: 'post',
      path: '/purchases/actions/assign-customer',
      interfaces: ENTERPRISE,
      status: 204,
      summary: 'Gives a recorded bill to a customer, who earns its points',
      body: AssignCustomer,
      handle: ({ body }) => recorder.assign(body),
      offline: { kind: 'purchases.assign-customer', makes: 'purchase_assignments', run: ({ body }) => recorder.assign(body) },
    }),
  ];
}
