// The one ELK instance of the view. elk.bundled runs ELK on the page's own thread; each call
// still answers asynchronously (through setTimeout), so independent calls are started together.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';

const elk = new ELK();

export function runElk<T extends object>(graph: T): Promise<T> {
  return elk.layout(graph as unknown as ElkNode) as unknown as Promise<T>;
}
