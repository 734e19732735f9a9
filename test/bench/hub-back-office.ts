/** The back office reading a hub while stores push to it: the catch-up and fleet benches' read of the hub's own API. */
import { DEMO_IDS } from '../../src/demo/demo.js';
import { demoBearer } from '../support/cluster.js';
import { fixedRate } from './fixed-rate.js';

/** A read of the demo customer at the hub at `url`, 100 req/s from 10 desks for `seconds`, as a function to run again. */
export async function hubBackOffice(url: string, seconds: number): Promise<() => ReturnType<typeof fixedRate>> {
  const headers = { authorization: `Bearer ${await demoBearer(url)}` };
  const customer = `${url}/rest-api/enterprise-interface/v1.0/customers/${DEMO_IDS.customerJana}`;
  return () => fixedRate(customer, headers, () => '', { desks: 10, perDesk: 10, seconds, method: 'GET' });
}
