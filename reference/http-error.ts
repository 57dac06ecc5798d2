/** A refusal with its HTTP status and the English error text; the error handler turns it into the error envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** What kind of refusal, where a fault needs to tell them apart. */
    readonly kind?: "malformed-json" | "bad-path-id",
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = "Insufficient authentication.") => new HttpError(401, message);
export const forbidden = (message = "Insufficient authorisation.") => new HttpError(403, message);
export const notFound = (message = "The requested object was not found.") => new HttpError(404, message);

/** Dutch texts for nl_NL; any other language gets the en_US text (spec: unsupported languages default to en_US). */
const DUTCH: Record<string, string> = {
  "Missing authentication token.": "Het authenticatietoken ontbreekt.",
  "Insufficient authentication.": "Onvoldoende authenticatie.",
  "Insufficient authorisation.": "Onvoldoende autorisatie.",
  "The requested object was not found.": "Het gevraagde object is niet gevonden.",
  "Incorrect API key or IP address.": "Onjuiste API-sleutel of IP-adres.",
  "The request body is not valid JSON.": "De inhoud van het verzoek is geen geldige JSON.",
  "The User-Agent header is required.": "De User-Agent-header is verplicht.",
  "This request id was already used on this device.": "Dit verzoek-id is al gebruikt op dit apparaat.",
  "Something went wrong on our side.": "Er ging iets mis aan onze kant.",
};

export function translate(message: string, language: string | undefined): string {
  return language === "nl_NL" ? (DUTCH[message] ?? message) : message;
}
