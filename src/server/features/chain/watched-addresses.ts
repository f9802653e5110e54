/**
 * The chain follower's deposit addresses in memory, with a bit filter in front of the map.
 *
 * Why by hand: in `npm run bench -- --follower-only` (bench/follower.ts, RESULTS.md round 19) matching
 * a range's 20,000 senders and recipients against 100,000 addresses in a Map took about 13 ms a
 * range, as long as the bare loop's whole fetch of the range on a quiet machine: almost every lookup
 * misses, and each miss hashes a 42-character string into a large table. A bit per slot, set for
 * every known address, answers nearly all of those misses from the address's last characters; only
 * a set bit (a known address, or about one stranger in eighty) goes on to the map.
 */

/** 2^23 bits (1 MB): with 250,000 addresses (the most a follower keeps) about 3% of the slots are set. */
const FILTER_BITS = 1 << 23;
/** Characters read from the end of an address: 32 bits of a hex address, more of a base58 one. */
const SLOT_CHARACTERS = 8;

/** The filter slot of an address: an FNV-1a hash of its last characters. */
function slotOf(address: string): number {
  let hash = 0x811c9dc5;
  for (let index = Math.max(0, address.length - SLOT_CHARACTERS); index < address.length; index += 1) {
    hash = Math.imul(hash ^ address.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0) & (FILTER_BITS - 1);
}

export class WatchedAddresses {
  readonly #owners: ReadonlyMap<string, string>;
  readonly #bits: Uint32Array | undefined;

  /** `owners`: each address in its network's comparison form, with the customer it belongs to. */
  constructor(owners: ReadonlyMap<string, string>) {
    this.#owners = owners;
    if (owners.size === 0) return;
    const bits = new Uint32Array(FILTER_BITS / 32);
    for (const address of owners.keys()) {
      const slot = slotOf(address);
      bits[slot >>> 5] = (bits[slot >>> 5] ?? 0) | (1 << (slot & 31));
    }
    this.#bits = bits;
  }

  get size(): number {
    return this.#owners.size;
  }

  /** The customer whose address this is, if any. */
  ownerOf(address: string): string | undefined {
    if (this.#bits === undefined) return undefined;
    const slot = slotOf(address);
    if (((this.#bits[slot >>> 5] ?? 0) & (1 << (slot & 31))) === 0) return undefined;
    return this.#owners.get(address);
  }
}
