// Probes of the company and category variants (faults/companies.ts; reference/resources/companies/).
import { inner, type Probe, type ProbeFn } from "./support.js";

const BODY = { name: "Probe BV", country: "NL", legal_form: "BV", subscription_type: "COMPANY_V2" };
const firstCompany = async (p: Probe) => inner(await p.get(`/user/${p.session.userId}/company?count=1`))[1];

export const PROBES: Record<string, ProbeFn> = {
  "company-null-for-unset": async (p) => {
    const company = await firstCompany(p);
    return company.deny_reason === null && company.address_shipping === null;
  },
  "company-relation-ids-integer": async (p) => {
    const relations = (await firstCompany(p)).relations as { user_id?: unknown }[] | undefined;
    return Number.isInteger(relations?.[0]?.user_id);
  },
  "company-read-form-sparse": async (p) => {
    const company = await firstCompany(p);
    return typeof company.id === "number" && !("name" in company) && !("country" in company);
  },
  "company-category-refusal-codes": async (p) => {
    const company = await p.send("POST", `/user/${p.session.userId}/company`, { ...BODY, name: 42 });
    const category = await p.send("POST", `/user/${p.session.userId}/additional-transaction-information-category-user-defined`, {});
    const unknown = await p.get(`/user/${p.session.userId}/company/999999999`);
    return company.status === 422 && category.status === 422 && unknown.status === 403;
  },
  "category-status-enabled-disabled": async (p) => {
    const post = (status: string) =>
      p.send("POST", `/user/${p.session.userId}/additional-transaction-information-category-user-defined`, { status });
    return (await post("ACTIVE")).status === 400 && (await post("ENABLED")).status === 200;
  },
};
