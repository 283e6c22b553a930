/**
 * A set that forgets its oldest entries past `capacity`: a ring of keys beside a Set, so eviction
 * never iterates (iterating a Set from the front after many deletions walks their tombstones).
 */
export class BoundedSet {
  private readonly items = new Set<string>();
  private readonly ring: (string | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.ring = new Array<string | undefined>(capacity);
  }

  /** Adds the key; false when it was already present. */
  add(key: string): boolean {
    if (this.items.has(key)) return false;
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.items.delete(evicted);
    this.ring[this.next] = key;
    this.next = (this.next + 1) % this.capacity;
    this.items.add(key);
    return true;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  get size(): number {
    return this.items.size;
  }
}
