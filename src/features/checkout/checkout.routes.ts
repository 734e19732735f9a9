import { endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { AcceptPayment, AssignCustomer, RecommendedBestRewards, SendPurchase } from './checkout.schemas.js';
import type { CheckoutService } from './checkout.service.js';
import type { PurchaseRecorder } from './purchase-recorder.service.js';

export function checkoutRoutes(checkout: CheckoutService, recorder: PurchaseRecorder): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/purchases/actions/recommended-best-rewards',
      interfaces: ENTERPRISE,
      cashDesk: true,
      body: RecommendedBestRewards,
      handle: ({ body }) => checkout.recommended(body),
    }),
    endpoint({
      method: 'post',
      path: '/purchases/actions/accept-payment',
      interfaces: ENTERPRISE,
      cashDesk: true,
      body: AcceptPayment,
      handle: ({ body }) => checkout.acceptPayment(body),
    }),
    endpoint({
      method: 'post',
      path: '/purchases/actions/send-purchase',
      interfaces: ENTERPRISE,
      status: 201,
      body: SendPurchase,
      handle: ({ body }) => recorder.sendNamingOriginal(body),
    }),
    endpoint({
      method: 'post',
      path: '/purchases/actions/assign-customer',
      interfaces: ENTERPRISE,
      status: 204,
      body: AssignCustomer,
      handle: ({ body }) => recorder.assign(body),
    }),
  ];
}
