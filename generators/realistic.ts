// Realistic field values for request bodies: the kinds of data a banking client really sends
// (ISO 3166 countries, language_REGION tags, ISO 4217 amounts, names, https URLs, real PEM chains and
// real image files), so a server that validates its inputs accepts the "valid" bodies built from them.
import fc from "fast-check";
import { FULL_CHAIN } from "../harness/test-data/certificates.js";
import { gif1x1, jpeg1x1, png1x1 } from "../harness/test-data/images.js";

/** ISO 3166-1 alpha-2, every officially assigned code. */
export const COUNTRY_CODES = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
  "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
  "KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
  "MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
  "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
  "UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");

/** language (ISO 639-1) _ country (ISO 3166-1 alpha-2), as X-Service-Language and X-Service-Region take them. */
export const LANGUAGE_TAGS = [
  "en_US",
  "nl_NL",
  "en_GB",
  "nl_BE",
  "fr_BE",
  "fr_FR",
  "de_DE",
  "de_AT",
  "de_CH",
  "it_IT",
  "es_ES",
  "pt_PT",
  "pt_BR",
  "sv_SE",
  "da_DK",
  "fi_FI",
  "nb_NO",
  "pl_PL",
  "cs_CZ",
  "el_GR",
  "ja_JP",
  "zh_CN",
];
/** The two languages the specification supports; every other tag falls back to en_US. */
export const SUPPORTED_LANGUAGES = ["en_US", "nl_NL"];

/** ISO 4217 codes as the runtime knows them, with the euro first. */
const CURRENCIES = ["EUR", ...Intl.supportedValuesOf("currency").filter((c) => c !== "EUR")];

export const countryCode = fc.constantFrom(...COUNTRY_CODES);
export const languageTag = fc.constantFrom(...LANGUAGE_TAGS);
/** Mostly euros, as a Dutch bank's clients would send. */
const currency = fc.oneof({ weight: 3, arbitrary: fc.constant("EUR") }, { weight: 1, arbitrary: fc.constantFrom(...CURRENCIES) });

/** A decimal string with two decimals, as the Amount object carries it: "0.01" … "99999.99". */
const decimalAmount = fc
  .integer({ min: 1, max: 9_999_999 })
  .map((cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`);
export const amount = fc.record({ value: decimalAmount, currency });

const FIRST = [
  "Anna",
  "Bram",
  "Daan",
  "Emma",
  "Fleur",
  "Jan",
  "Julia",
  "Lars",
  "Lotte",
  "Milan",
  "Noor",
  "Pieter",
  "Sanne",
  "Sem",
  "Tess",
  "Thijs",
  "Yara",
  "Zoë",
  "Jürgen",
  "Amélie",
];
const LAST = [
  "de Vries",
  "Jansen",
  "van den Berg",
  "Bakker",
  "Visser",
  "Smit",
  "Meijer",
  "de Boer",
  "Mulder",
  "de Groot",
  "Bos",
  "Vos",
  "Peters",
  "Hendriks",
  "van Dijk",
  "Dekker",
  "Brouwer",
  "Müller",
  "Lefèvre",
];
export const personName = fc.tuple(fc.constantFrom(...FIRST), fc.constantFrom(...LAST)).map(([first, last]) => `${first} ${last}`);
/** As printed on a card: upper case, at most 26 characters (the embossing width). */
export const nameOnCard = personName.map((name) => name.toUpperCase().slice(0, 26));

const COMPANY_WORDS = ["Tulip", "Polder", "Delta", "Noordzee", "Molen", "Gracht", "Zuidas", "Horizon", "Kade", "Duin"];
const COMPANY_KINDS = ["Holding", "Trading", "Consultancy", "Logistics", "Software", "Bakery", "Studio", "Ventures"];
const LEGAL_FORMS = ["BV", "NV", "VOF", "EENMANSZAAK", "STICHTING", "VERENIGING", "COOPERATIE", "CV"];
export const companyName = fc
  .tuple(fc.constantFrom(...COMPANY_WORDS), fc.constantFrom(...COMPANY_KINDS), fc.constantFrom(...LEGAL_FORMS))
  .map(([word, kind, form]) => `${word} ${kind} ${form}`);

/** Eight digits, as a Dutch chamber of commerce (KvK) number. */
export const chamberOfCommerceNumber = fc.integer({ min: 10_000_000, max: 99_999_999 }).map(String);
/** YYYY-MM-DD between 1930 and 2005. */
export const dateOfBirth = fc
  .record({ y: fc.integer({ min: 1930, max: 2005 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);

const STREETS = ["Naritaweg", "Damrak", "Coolsingel", "Lange Voorhout", "Oudegracht", "Stationsplein", "Kalverstraat"];
const CITIES = ["Amsterdam", "Rotterdam", "Den Haag", "Utrecht", "Eindhoven", "Groningen", "Leiden"];
/** A Dutch postal code: four digits, a space, two capitals (no SA, SD or SS). */
const postalCode = fc
  .tuple(
    fc.integer({ min: 1000, max: 9999 }),
    fc.constantFrom(..."ABCEGHJKLMNPRTVWXZ".split("")),
    fc.constantFrom(..."ABCEGHJKLMNPRTVWXZ".split("")),
  )
  .map(([digits, a, b]) => `${digits} ${a}${b}`);
export const address = fc.record(
  {
    street: fc.constantFrom(...STREETS),
    house_number: fc.integer({ min: 1, max: 400 }).map(String),
    postal_code: postalCode,
    city: fc.constantFrom(...CITIES),
    country: countryCode,
    extra: fc.constantFrom("", "2 hoog", "achterhuis"),
  },
  { requiredKeys: ["street", "house_number", "postal_code", "city", "country"] },
);

const HOSTS = ["app.example", "client.example.com", "payments.example.org", "api.example.net", "staging.app.example"];
/** An https URL on a reserved example domain, with a path and sometimes a query. */
export const httpsUrl = fc
  .tuple(
    fc.constantFrom(...HOSTS),
    fc.array(fc.constantFrom("oauth", "callback", "v2", "return", "banking"), { minLength: 1, maxLength: 3 }),
    fc.option(fc.integer({ min: 1, max: 9999 })),
  )
  .map(([host, segments, state]) => `https://${host}/${segments.join("/")}${state === null ? "" : `?state=${state}`}`);

/** BICs of Dutch iDEAL issuers. */
export const issuerBic = fc.constantFrom(
  "ABNANL2A",
  "ASNBNL21",
  "BUNQNL2A",
  "INGBNL2A",
  "KNABNL2H",
  "RABONL2U",
  "RBRBNL21",
  "SNSBNL2A",
  "TRIONL2U",
);

/** An API key as sandbox users get them: 64 hexadecimal characters. */
export const apiKeyLike = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString("hex"));

/** A real RSA-2048 public key in PEM (made with openssl for this file; its private key was not kept). */
export const RSA_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAqGX2aC0T8ndcmTs6/A91
UhEElgf15cBDSYl3zuzdZLllxuBPle2DMu85UOijIgJNGiCbg5BMfkkYIfcxeFwg
JkAGKrheBN2dj2sonWeFeUWQXGCEqcSLBkUHU5gHmLb2hZAbOYzZPGWuYRUO6McO
iSsQW4Q76tS4tkx5m2I6FqpSt60OBxVJk9Ocba1RWa4vxu0qVQ1ENnzzXGLseVlX
ZQLxXTgm15KaVG7dj/gPSjNueQle3DclxjoI1vUbcEDmDZun8T1jBibRmOxS9Wnl
iKzeMXAmhPrvbxbbYBP1We3j2AALUxoz8D+iAXEwFTdTgL2HklfDQ2tp4j8cFTwA
oQIDAQAB
-----END PUBLIC KEY-----
`;

/**
 * A certificate chain as POST certificate-pinned takes it: the real leaf → intermediate → root chain of
 * harness/test-data/certificates, or a prefix of it (a leaf alone, leaf and intermediate).
 */
export const certificateChain = fc
  .integer({ min: 1, max: FULL_CHAIN.length })
  .map((n) => FULL_CHAIN.slice(0, n).map((certificate) => ({ certificate })));

/** A real image file of a type the attachment endpoint must accept (PNG, JPEG, GIF). */
export const imageFile = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
    .map((rgb) => ({ contentType: "image/png", bytes: png1x1(rgb) })),
  fc.constant({ contentType: "image/jpeg", bytes: jpeg1x1() }),
  fc.constant({ contentType: "image/gif", bytes: gif1x1() }),
);

/** Short free text (descriptions, second lines) of printable characters. */
export const shortText = (maxLength = 40) =>
  fc.stringMatching(new RegExp(`^[A-Za-z0-9][A-Za-z0-9 .,'-]{0,${Math.max(0, maxLength - 1)}}$`));

/** An oversized string: far beyond any reasonable field, yet valid JSON and valid per the schemas (which set no maximum). */
export const oversizedText = fc
  .integer({ min: 4_096, max: 65_536 })
  .chain((length) => fc.constantFrom("A", "é", "x ").map((unit) => unit.repeat(Math.ceil(length / unit.length))));
