// Laid-out levels by their ELK input (see levelInput.ts): a level whose input is unchanged is
// not laid out again. Least recently used entries go first. Pure, unit-tested.
import type { LevelResult } from './levelInput';

export class LayoutCache {
  private readonly entries = new Map<string, LevelResult>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity = 400) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): LevelResult | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map keeps insertion order: re-inserting marks the entry as the most recent.
      this.entries.delete(key);
      this.entries.set(key, hit);
      this.hits++;
    } else {
      this.misses++;
    }
    return hit;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, result: LevelResult): void {
    this.entries.delete(key);
    this.entries.set(key, result);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
