// The model of the card state machine: banking-api.md "States and transitions > Card", and nothing more
// (spec/gaps.md GAP-10). A move the table allows must succeed; a move it forbids (leaving LOST, STOLEN or
// CANCELLED; a status outside the five values) must be refused with exactly 400; any other move is the
// target's choice (CARD-020, LENIENT: strict requires refusal, except where the card's past leaves the
// table's reading open, GAP-73, or nothing would change). DEACTIVATED on a card the model takes as never
// activated is the target's choice too (CARD-018, LENIENT): the model cannot know the card's past before
// the run (a re-issued card may wait in ACCEPTED_FOR_PRODUCTION after an activation).

export const CARD_STATUSES = ["ACTIVE", "DEACTIVATED", "LOST", "STOLEN", "CANCELLED"];
/** Row 2: permanent once set. */
export const PERMANENT = ["LOST", "STOLEN", "CANCELLED"];
/** Row 2: the order statuses LOST, STOLEN and CANCELLED may be set from. */
const REPORTABLE_ORDER = [
  "ACCEPTED_FOR_PRODUCTION",
  "DELIVERED_TO_CUSTOMER",
  "CARD_UPDATE_REQUESTED",
  "CARD_UPDATE_SENT",
  "CARD_UPDATE_ACCEPTED",
];
/** Row 3: the order statuses an activated card may be DEACTIVATED in. */
export const DEACTIVATABLE_ORDER = REPORTABLE_ORDER.filter((s) => s !== "ACCEPTED_FOR_PRODUCTION");
/** Row 4: the order status any card may be set to. */
export const REQUEST_PENDING = "CARD_REQUEST_PENDING";

/** What the model knows of one card. */
export interface CardState {
  status: string;
  order: string;
  /** Whether the card was ever activated; undefined where its history cannot be known. */
  activated: boolean | undefined;
  /** The requirement whose move produced the current state (named when a later read disagrees). */
  since: string;
}

export type Verdict =
  | { kind: "allowed"; req: string; rule: string }
  | { kind: "forbidden"; req: string; rule: string }
  /** Not decided by the table; `strictRefusal`: a strict profile requires the refusal (CARD-018, CARD-020). */
  | { kind: "undecided"; req: "CARD-018" | "CARD-020"; rule: string; strictRefusal: boolean };

const allowed = (req: string, rule: string): Verdict => ({ kind: "allowed", req, rule });
const forbidden = (req: string, rule: string): Verdict => ({ kind: "forbidden", req, rule });
const undecided = (rule: string, strictRefusal = true): Verdict => ({ kind: "undecided", req: "CARD-020", rule, strictRefusal });
/** The status the card already has: no move at all, so neither answer is preferred, strict or not. */
const noChange = (status: string): Verdict => undecided(`${status} on a card that is ${status} already (no move)`, false);

/** What the table says of PUT {"status": to} on a card in `card`'s state. */
export function statusVerdict(card: CardState, to: string): Verdict {
  if (!CARD_STATUSES.includes(to)) return forbidden("CARD-010", `status ${JSON.stringify(to)} is none of ${CARD_STATUSES.join(", ")}`);
  if (PERMANENT.includes(card.status)) {
    if (to === card.status) return noChange(to);
    return forbidden("CARD-015", `row 2: ${card.status} is permanent and cannot be changed afterwards`);
  }
  if (to === "ACTIVE") {
    if (card.order === "ACCEPTED_FOR_PRODUCTION")
      return allowed("CARD-013", "row 1: PUT status ACTIVE activates a card whose order_status is ACCEPTED_FOR_PRODUCTION");
    if (card.status === "ACTIVE") return noChange(to);
    if (card.status === "DEACTIVATED" && card.activated === true && DEACTIVATABLE_ORDER.includes(card.order)) {
      return allowed("CARD-017", "row 3: DEACTIVATED is reversible to ACTIVE");
    }
    // Strict requires the refusal only on a card known never to have been activated: otherwise ACTIVE may
    // be row 3's way back from DEACTIVATED (spec/gaps.md GAP-73).
    return undecided(
      `ACTIVE on a card with status ${card.status} and order_status ` +
        `${card.order}${card.activated === undefined ? " (activation history unknown)" : ""}`,
      card.activated === false,
    );
  }
  if (to === "DEACTIVATED") {
    if (card.activated === false) {
      return {
        kind: "undecided",
        req: "CARD-018",
        rule: "row 3: DEACTIVATED only after initial activation, on a card taken as never activated",
        strictRefusal: true,
      };
    }
    if (card.activated === true && DEACTIVATABLE_ORDER.includes(card.order))
      return allowed("CARD-016", `row 3: DEACTIVATED on an activated card with order_status ${card.order}`);
    return undecided(
      `DEACTIVATED on a card with status ${card.status} and order_status ` +
        `${card.order}${card.activated === undefined ? " (activation history unknown)" : ""}`,
      card.activated !== undefined,
    );
  }
  if (REPORTABLE_ORDER.includes(card.order)) return allowed("CARD-014", `row 2: ${to} while order_status is ${card.order}`);
  return undecided(`${to} on a card with order_status ${card.order}`);
}

/** What the table says of PUT {"order_status": "CARD_REQUEST_PENDING"}. */
export function requestPendingVerdict(card: CardState): Verdict {
  // Row 4 says "any": a LOST, STOLEN or CANCELLED card too (blind round 2: both readers STATED; its status stays, CARD-015).
  return allowed(
    "CARD-019",
    `row 4: any card${PERMANENT.includes(card.status) ? `, ${card.status} too,` : ""} may be set to order_status ${REQUEST_PENDING}`,
  );
}

/** The model after a move the target applied: the status asked for, and activation once ACTIVE. */
export function afterStatus(card: CardState, to: string, req: string): CardState {
  return { ...card, status: to, activated: to === "ACTIVE" ? true : card.activated, since: req };
}
