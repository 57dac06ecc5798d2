// Blind round 3 (bug shape: readback): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../fault.js";

export const BLIND3_READBACK_FAULTS = [
  // banking-api.md, Shared objects: "| Address (response) | the request fields plus province (string), is_user_address_updated
  // (boolean) |"
  fault(
    "r3-company-address-members-dropped",
    "TBD-0",
    "The company read form (list and read) shows only street, house_number, postal_code, city and country of address_main " +
      "and address_postal: the po_box, extra and mailbox_name sent are lost.",
    [],
  ),
  // wire-conventions.md §5: "Items are ordered by id; within a page either ascending (the specification's reading: `newer_id`
  // is the page's last item) or descending (the provider's): LENIENT, `strict` requires ascending."
  fault(
    "r3-company-list-page-sorted-by-name",
    "TBD-0",
    "The company list picks the right companies for a page but orders them by name (as text) instead of by id; other lists keep id order.",
    [],
  ),
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  fault(
    "r3-card-list-fallback-omitted",
    "TBD-0",
    "GET /card (the list) leaves monetary_account_id_fallback out of every card, as if none had one; GET /card/{id} shows it.",
    [],
  ),
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a new
  // card number."
  fault(
    "r3-card-list-old-number-after-replace",
    "TBD-0",
    "After a replacement GET /card (the list) still shows the card's first card number in primary_account_numbers; " +
      "GET /card/{id} shows the new one.",
    [],
  ),
  // wire-conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines."
  // (banking-api.md: "| GET | /user/{userID}/certificate-pinned | none | array of {certificate_chain: string, id: integer} |")
  fault(
    "r3-cert-list-first-certificate-only",
    "TBD-0",
    "GET certificate-pinned (the list) shows only the first certificate of each chain; the read by id shows the whole chain.",
    [],
  ),
  // banking-api.md, Endpoints > OAuth client callback URLs: "| POST | /user/{userID}/oauth-client/{oauth-clientID}/callback-url |
  // {url: required string} | see gap list |" (read back: "OAuth callback URL: fields: not shown beyond url (string).")
  fault(
    "r3-callback-url-list-url-normalised",
    "TBD-0",
    "GET callback-url (the list) shows each url in WHATWG-normalised form (host lower-cased, default port dropped, a slash " +
      "added after a bare host); the read by id shows the url as sent.",
    [],
  ),
  // wire-conventions.md §1: "Creates (POST) answer `{"Response": [{"Id": {"id": N}}]}` (also where the table writes
  // `{id: integer}`)." (banking-api.md: "| GET | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} | ...")
  fault(
    "r3-callback-url-create-answers-client-id",
    "TBD-0",
    "POST callback-url answers, as the new callback URL's Id, the id of the OAuth client in the path.",
    [],
  ),
  // banking-api.md, Share invite table: "| monetary_account_id | integer | read-only | the account an accepted share applies
  // to; null otherwise |"
  fault(
    "r3-share-invite-list-account-null",
    "TBD-0",
    "GET share-invite (the list) shows monetary_account_id null on every share, accepted ones included; the read by id shows it.",
    [],
  ),
  // wire-conventions.md §7: "Attachment upload answers `Id`; `GET /user/{u}/attachment/{id}` answers `AttachmentUser` with
  // `attachment.content_type` and `attachment.description` as uploaded."
  fault(
    "r3-attachment-jpeg-read-as-jpg",
    "TBD-0",
    "A JPEG uploaded as image/jpeg reads back with attachment.content_type image/jpg (the type is rebuilt from the file extension).",
    [],
  ),
  // wire-conventions.md §7: "iDEAL merchant transactions (deprecated), the provider's paths: `POST|GET
  // /user/{u}/monetary-account/{m}/ideal-merchant-transaction`, `GET .../ideal-merchant-transaction/{id}`; object fields
  // `issuer` (BIC), `monetary_account_id`, ..."
  fault(
    "r3-ideal-list-all-accounts",
    "TBD-0",
    "GET ideal-merchant-transaction (the list) under one monetary account lists the transactions of every account of the user; " +
      "the read by id still refuses one of another account.",
    [],
  ),
] as const;
