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

/** Items of one resource, each owned by a user, ids from the server-wide counter. */
export class Collection<T extends { id: number }> {
  private readonly items = new Map<number, { owner: number; item: T }>();

  constructor(private readonly nextId: () => number) {}

  add(owner: number, make: (id: number) => T): T {
    const item = make(this.nextId());
    this.items.set(item.id, { owner, item });
    return item;
  }

  /** The item when it exists and belongs to `owner`; another user's item is as absent as a missing one. */
  get(owner: number, id: number): T | undefined {
    const entry = this.items.get(id);
    return entry && entry.owner === owner ? entry.item : undefined;
  }

  /** Ignores ownership: for faults that model a missing object-level check. */
  getAny(id: number): T | undefined {
    return this.items.get(id)?.item;
  }

  ownerOf(id: number): number | undefined {
    return this.items.get(id)?.owner;
  }

  list(owner: number): T[] {
    return [...this.items.values()].filter((e) => e.owner === owner).map((e) => e.item).sort((a, b) => a.id - b.id);
  }

  delete(owner: number, id: number): boolean {
    const entry = this.items.get(id);
    if (!entry || entry.owner !== owner) return false;
    return this.items.delete(id);
  }
}

export class ReferenceState {
  private counter = 1000;
  readonly users = new Map<number, User>();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly installations = new Map<string, Installation>();
  readonly devices = new Map<number, Device>();
  readonly sessions = new Map<string, SessionRecord>();
  /** Request ids already used, per device (or per installation before a device exists). */
  readonly usedRequestIds = new Map<string, Set<string>>();
  private readonly collections = new Map<string, Collection<{ id: number }>>();

  nextId = (): number => ++this.counter;

  token(): string {
    return randomBytes(32).toString("hex");
  }

  collection<T extends { id: number }>(name: string): Collection<T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new Collection(this.nextId);
      this.collections.set(name, found);
    }
    return found as unknown as Collection<T>;
  }

  createUser(apiKey: string, displayName: string): User {
    const user: User = {
      id: this.nextId(),
      displayName,
      apiKey,
      monetaryAccountIds: [this.nextId(), this.nextId()],
      created: timestamp(),
    };
    this.users.set(user.id, user);
    this.apiKeys.set(apiKey, { key: apiKey, userId: user.id, lockedIps: new Set() });
    return user;
  }
}
