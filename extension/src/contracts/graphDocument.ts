// The graph document written by `python -m mindscope_runtime graph|mindir|onnx`
// (schemas/graph-document.schema.json, kind "mindscope.graph", version 1).

export type {
  Shape,
  SourceLocation,
  ValueDescription,
  NodeInput,
  NodeCategory,
  GraphNode,
  GraphEdge,
  GraphParameter,
  ScopeNode,
  FusionPattern,
  SubGraph,
  GraphMeta,
  GraphDocument,
} from './generated/graphDocument';
import type { GraphDocument, GraphError } from './generated/graphDocument';

/** Why the compile failed (the document's `error` when it is not null). */
export type CompileError = NonNullable<GraphError>;

export const GRAPH_MIME = 'application/vnd.mindscope.graph+json';

/** A cheap structural check: enough to refuse a file that is not a graph document. */
export function isGraphDocument(value: unknown): value is GraphDocument {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof GraphDocument, unknown>>;
  return (
    v.kind === 'mindscope.graph' &&
    v.version === 1 &&
    Array.isArray(v.nodes) &&
    Array.isArray(v.edges) &&
    Array.isArray(v.scopes) &&
    typeof v.meta === 'object' &&
    v.meta !== null
  );
}
