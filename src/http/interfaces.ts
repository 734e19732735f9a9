export const INTERFACES = ['enterprise', 'customer'] as const;
export type Interface = (typeof INTERFACES)[number];

export const INTERFACE_SEGMENT: Record<Interface, string> = {
  enterprise: 'enterprise-interface',
  customer: 'customer-interface',
};

export const INTERFACE_LABEL: Record<Interface, string> = {
  enterprise: 'Enterprise',
  customer: 'Customer',
};

export const API_VERSION = 'v1.0';

export function basePath(iface: Interface): string {
  return `/rest-api/${INTERFACE_SEGMENT[iface]}/${API_VERSION}`;
}
