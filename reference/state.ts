import { randomBytes } from "node:crypto";
import { timestamp } from "./time.js";

export interface User {
  id: number;
  displayName: string;
  apiKey: string;
  monetaryAccountIds: number[];
  created: string;
}

export interface ApiKeyRecord {
  key: string;
  userId: number;
  /** Addresses the key is bound to; undefined until the first device registration. */
  boundIps?: Set<string>;
  /** Addresses locked out after a device registration whose permitted_ips lacked them. */
  lockedIps: Set<string>;
}

export interface Installation {
  id: number;
  token: string;
  publicKeyPem: string;
  deviceIds: number[];
}

export interface Device {
  id: number;
  installationToken: string;
  apiKey: string;
  description: string;
  ips: string[];
}

export interface SessionRecord {
  id: number;
  token: string;
  userId: number;
  deviceId: number;
  ips: string[];
}

/** Items of one resource, each owned by a user; an item is known by its owner and id (ids may repeat across users). */
export class Collection<T extends { id: number }> {
  /** Each owner's items by id, in the order they were added. */
  private readonly byOwner = new Map<number, Map<number, Entry<T>>>();
  /**
   * Every item with an id, oldest first (more than one only where ids repeat across users). Reads of another user's
   * item and of an item's owner are a lookup here, not a scan of every user's items: a company list page of 200 items
   * asks each item's owner, and the run's state holds thousands of items.
   */
  private readonly byId = new Map<number, Entry<T>[]>();

  constructor(private readonly nextId: (owner: number) => number) {}

  add(owner: number, make: (id: number) => T): T {
    const item = make(this.nextId(owner));
    const entry = { owner, item };
    let own = this.byOwner.get(owner);
    if (!own) this.byOwner.set(owner, (own = new Map()));
    const replaced = own.get(item.id);
    own.set(item.id, entry);
    const same = this.byId.get(item.id);
    if (!same) this.byId.set(item.id, [entry]);
    else if (replaced) same[same.indexOf(replaced)] = entry;
    else same.push(entry);
    return item;
  }

  /** The item when it exists and belongs to `owner`; another user's item is as absent as a missing one. */
  get(owner: number, id: number): T | undefined {
    return this.byOwner.get(owner)?.get(id)?.item;
  }

  /** Ignores ownership: for faults that model a missing object-level check. */
  getAny(id: number): T | undefined {
    return this.byId.get(id)?.[0]?.item;
  }

  ownerOf(id: number): number | undefined {
    return this.byId.get(id)?.[0]?.owner;
  }

  list(owner: number): T[] {
    return [...(this.byOwner.get(owner)?.values() ?? [])].map((e) => e.item).sort((a, b) => a.id - b.id);
  }

  delete(owner: number, id: number): boolean {
    const own = this.byOwner.get(owner);
    const entry = own?.get(id);
    if (!entry) return false;
    own!.delete(id);
    const rest = this.byId.get(id)!.filter((e) => e !== entry);
    if (rest.length > 0) this.byId.set(id, rest);
    else this.byId.delete(id);
    return true;
  }
}

interface Entry<T> {
  owner: number;
  item: T;
}

/** Legal variants of how the state numbers things (declared in faults/variants.ts). */
export interface StateOptions {
  /** Ids start just below 2^31. */
  idsLarge?: boolean;
  /** Each user's items are numbered from 1 (one counter per user across its resources). */
  idsPerUser?: boolean;
  /** Tokens are base64url instead of hex. */
  tokensBase64url?: boolean;
  /** Each user's items are numbered from 1 in each resource (one counter per user and resource), monetary accounts too. */
  idsPerUserPerResource?: boolean;
}

export class ReferenceState {
  private counter: number;
  private readonly perUser = new Map<number, number>();
  readonly users = new Map<number, User>();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly installations = new Map<string, Installation>();
  readonly devices = new Map<number, Device>();
  readonly sessions = new Map<string, SessionRecord>();
  /** Request ids already used, per device (or per installation before a device exists). */
  readonly usedRequestIds = new Map<string, Set<string>>();
  private readonly collections = new Map<string, Collection<{ id: number }>>();

  constructor(private readonly options: StateOptions = {}) {
    this.counter = options.idsLarge ? 2 ** 31 - 600 : 1000;
  }

  nextId = (): number => ++this.counter;

  /** The greatest server-wide id handed out so far: no item of any user has a greater one (variant unknown-item-read-empty). */
  get lastId(): number {
    return this.counter;
  }

  /** The id of a user's new item: server-wide, or per user under the ids-per-user variant. */
  nextItemId = (owner: number): number => {
    if (!this.options.idsPerUser) return this.nextId();
    const next = (this.perUser.get(owner) ?? 0) + 1;
    this.perUser.set(owner, next);
    return next;
  };

  token(): string {
    return randomBytes(32).toString(this.options.tokensBase64url ? "base64url" : "hex");
  }

  collection<T extends { id: number }>(name: string): Collection<T> {
    let found = this.collections.get(name);
    if (!found) {
      const perResource = new Map<number, number>();
      found = new Collection(
        this.options.idsPerUserPerResource
          ? (owner: number) => {
              const next = (perResource.get(owner) ?? 0) + 1;
              perResource.set(owner, next);
              return next;
            }
          : this.nextItemId,
      );
      this.collections.set(name, found);
    }
    return found as unknown as Collection<T>;
  }

  createUser(apiKey: string, displayName: string): User {
    const user: User = {
      id: this.nextId(),
      displayName,
      apiKey,
      monetaryAccountIds: this.options.idsPerUserPerResource ? [1, 2] : [this.nextId(), this.nextId()],
      created: timestamp(),
    };
    this.users.set(user.id, user);
    this.apiKeys.set(apiKey, { key: apiKey, userId: user.id, lockedIps: new Set() });
    return user;
  }
}
