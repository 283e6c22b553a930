/**
 * A set that forgets its oldest entries past `capacity`: a ring of keys beside a Set, so eviction
 * never iterates (iterating a Set from the front after many deletions walks their tombstones). The
 * ring grows with the set up to `capacity` (one per connection would otherwise hold `capacity` empty
 * slots from the start: 160 kB each at 20,000).
 */
export class BoundedSet {
  private readonly items = new Set<string>();
  private readonly ring: string[] = [];
  /** The ring's oldest key once it is full. */
  private next = 0;

  constructor(private readonly capacity: number) {}

  /** Adds the key; false when it was already present. */
  add(key: string): boolean {
    if (this.items.has(key)) return false;
    if (this.ring.length < this.capacity) this.ring.push(key);
    else {
      this.items.delete(this.ring[this.next]!);
      this.ring[this.next] = key;
      this.next = (this.next + 1) % this.capacity;
    }
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
