import { toMajor } from '../money.ts';
import type { ShippingChoice } from './checkout.ts';
import type { OrderShipping } from './schemas.ts';

/** An order's shipping as the API shows it: the amount as a decimal, the product id left out (it is the transaction's resourceID). */
export function renderShipping(s: ShippingChoice, currency: string): OrderShipping {
  return {
    method: s.method,
    amount: toMajor(s.amount, currency),
    ...(s.deliveryLocation ? { deliveryLocation: s.deliveryLocation } : {}),
    ...(s.address ? { address: s.address } : {}),
    ...(s.pickupLocation ? { pickupLocation: s.pickupLocation } : {}),
  };
}
