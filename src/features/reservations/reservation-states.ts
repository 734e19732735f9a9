/**
 * A reservation's state is not stored: it is the fold of its reservation_state_changes
 * facts in HLC order (DESIGN §5), the same on every node that holds the same facts.
 */
import { ENTERED } from './product-reservations.schemas.js';

export interface StateFact {
  reservation_state: number;
  hlc: string;
}

export interface ReservationStates {
  actual_state: number;
  /** Every state the reservation went through, newest first, as the API lists them. */
  states: string[];
}

export function foldReservationStates(facts: readonly StateFact[]): ReservationStates {
  const history: number[] = [];
  for (const fact of [...facts].sort((a, b) => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : 0))) {
    // Two nodes apart may both cancel a reservation; the later cancel changes nothing.
    if (history.at(-1) !== fact.reservation_state) history.push(fact.reservation_state);
  }
  return { actual_state: history.at(-1) ?? ENTERED, states: history.reverse().map(String) };
}
