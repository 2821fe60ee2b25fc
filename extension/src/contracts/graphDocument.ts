// The graph document written by `python -m mindscope_runtime graph|mindir|onnx`
// (schemas/graph-document.schema.json, kind "mindscope.graph", version 1).

export type Shape = number[] | null;

export interface SourceLocation {
  file: string;
  line: number;
  endLine: number;
  column: number | null;
  endColumn: number | null;
  code: string;
  framework: boolean;
}

export interface ValueDescription {
  type: 'tensor' | 'tuple' | 'list' | 'scalar' | 'monad' | 'func' | 'none' | 'other';
  dtype?: string | null;
  shape?: Shape;
  elements?: ValueDescription[];
}

export interface NodeInput {
  kind: 'node' | 'param' | 'graph' | 'monad' | 'const';
  ref?: string | null;
  text?: string;
  type?: string;
  dtype?: string | null;
  shape?: Shape;
}

export type NodeCategory = 'compute' | 'aux' | 'control' | 'cell';

export interface GraphNode {
  id: string;
  graph: string;
  opType: string;
  primitive: string;
  name: string;
  fullName: string;
  scope: string;
  category: NodeCategory;
  instanceName?: string | null;
  inputs: NodeInput[];
  outputs: ValueDescription[];
  attrs: Record<string, unknown>;
  source: SourceLocation[];
  userSource: SourceLocation | null;
  frameworkSource: SourceLocation | null;
  pattern?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  toInput: number;
  kind: 'data' | 'control' | 'inferred';
}

export interface GraphParameter {
  id: string;
  name: string;
  kind: 'weight' | 'input';
  dtype: string | null;
  shape: Shape;
  size: number;
  graph: string | null;
}

export interface ScopeNode {
  path: string;
  name: string;
  cellType: string | null;
  attrPath: string;
  opCount: number;
  totalOpCount: number;
  paramCount: number;
  paramTensors: number;
  children: ScopeNode[];
}

export interface FusionPattern {
  id: string;
  kind: string;
  nodes: string[];
  scope: string;
}

export interface SubGraph {
  index: number;
  name: string;
  entry: boolean;
  params: string[];
  source: SourceLocation[];
}

export interface CompileError {
  kind: 'compile-failed';
  type: string;
  message: string;
  detail?: string;
  file?: string | null;
  line?: number | null;
  column?: number | null;
  pynativeError?: string;
  rule?: {
    code: string;
    message?: string | null;
    doc: string;
    line: number | null;
    source: 'checker' | 'message';
  } | null;
}

export interface GraphMeta {
  mindsporeVersion: string;
  mode: 'GRAPH_MODE' | 'PYNATIVE_MODE';
  syntaxLevel: string;
  capture: 'ir-dump' | 'pynative-hooks' | 'mindir' | 'summary' | 'onnx';
  target: string;
  rootCell?: string;
  device: string;
  inputs: { shape: Shape; dtype: string }[];
  compileSeconds?: number;
  /** Ops moved from MindSpore's scope (a shared function's first caller) to the Cell that ran them. */
  rehomedOps?: number;
  createdAt?: string;
  counts: {
    nodes: number;
    computeOps: number;
    edges: number;
    graphs: number;
    parameters: number;
    parameterElements: number;
  };
}

export interface GraphDocument {
  kind: 'mindscope.graph';
  version: 1;
  meta: GraphMeta;
  error: CompileError | null;
  graphs: SubGraph[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  parameters: GraphParameter[];
  scopes: ScopeNode[];
  patterns: FusionPattern[];
}

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
