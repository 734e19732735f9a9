import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import {
  ApplyVoucher,
  CreateVoucher,
  RewardAnswer,
  RewardPath,
  RewardQuery,
  RewardsAnswer,
  VoucherAnswer,
  VoucherCreated,
  VoucherPath,
  VouchersAnswer,
  VouchersQuery,
} from './vouchers.schemas.js';
import type { VoucherIssuer } from './voucher-issuing.service.js';
import type { VouchersService } from './vouchers.service.js';

export function vouchersRoutes(vouchers: VouchersService, issuer: VoucherIssuer): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/vouchers',
      interfaces: BOTH,
      query: VouchersQuery,
      answer: VouchersAnswer,
      handle: ({ query }, context) => vouchers.list(query, context),
    }),
    endpoint({
      method: 'get',
      path: '/vouchers/:voucher_id',
      interfaces: BOTH,
      params: VoucherPath,
      answer: VoucherAnswer,
      handle: ({ params }, context) => vouchers.get(params.voucher_id, context),
    }),
    endpoint({
      method: 'post',
      path: '/vouchers/:voucher_id/actions/apply-voucher',
      interfaces: BOTH,
      status: 204,
      params: VoucherPath,
      body: ApplyVoucher,
      handle: ({ params, body }, context) => vouchers.apply(params.voucher_id, body, context),
      offline: {
        kind: 'vouchers.apply',
        makes: 'voucher_applications',
        run: ({ params, body }, context) => vouchers.apply(params.voucher_id, body, context),
      },
    }),
    endpoint({
      method: 'get',
      path: '/rewards',
      interfaces: BOTH,
      query: RewardQuery,
      answer: RewardsAnswer,
      handle: ({ query }) => vouchers.rewards(query),
    }),
    endpoint({
      method: 'get',
      path: '/rewards/:reward_id',
      interfaces: BOTH,
      params: RewardPath,
      answer: RewardAnswer,
      handle: ({ params }) => vouchers.reward(params.reward_id),
    }),
    endpoint({
      method: 'post',
      path: '/rewards/:reward_id/actions/create-voucher',
      interfaces: BOTH,
      status: 201,
      params: RewardPath,
      body: CreateVoucher,
      answer: VoucherCreated,
      handle: ({ params, body }, context) => issuer.create(params.reward_id, body, context),
      offline: {
        kind: 'vouchers.create',
        makes: 'vouchers',
        run: ({ params, body }, context) => void issuer.create(params.reward_id, body, context),
      },
    }),
  ];
}
