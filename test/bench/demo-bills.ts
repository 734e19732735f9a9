/** The benches' bills in the demo chain: two or three of its products, prices varying with `i`, paid in full. */
export function demoBill(i: number, billId: string, paymentTime: string) {
  const items = Array.from({ length: 2 + (i % 2) }, (_, k) => {
    const price = 30 + ((i + k * 7) % 170);
    return { plu_ids: [{ list_code: 'GLOBAL', code: `859000${769 + ((i + k) % 6)}` }], quantity: 1, price, paid_amount: price, bill_item_id: k + 1 };
  });
  const total = items.reduce((sum, item) => sum + item.paid_amount, 0);
  return { bill_id: billId, payment_time: paymentTime, currency_id: 'CZK', total_price: String(total), bill_items: items };
}
