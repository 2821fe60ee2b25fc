// Generated from schemas/graph-document.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

export type Shape = number[] | null;
/**
 * null when the graph compiled; else the compile error, located at the user's line.
 */
export type GraphError = {
  kind: 'compile-failed';
  type: string;
  message: string;
  detail?: string;
  file?: string | null;
  line?: number | null;
  column?: number | null;
  pynativeError?: string;
  /**
   * the MindScope checker rule the failure maps to, or null
   */
  rule?: {
    /**
     * e.g. MS101; see docs/rules/<code>.md
     */
    code: string;
    /**
     * the checker's message (null when mapped from MindSpore's text only)
     */
    message?: string | null;
    doc: string;
    line: number | null;
    column?: number | null;
    endLine?: number | null;
    endColumn?: number | null;
    severity?: string;
    /**
     * checker: a finding of mindscope_ls.checker on the failing line; message: recognised from MindSpore's error text
     */
    source: 'checker' | 'message';
  } | null;
} | null;
export type NodeCategory = 'compute' | 'aux' | 'control' | 'cell';

/**
 * A compiled MindSpore graph (from the final executed IR, `capture: ir-dump`; or from a MINDIR file, `capture: mindir`, or an ONNX file, `capture: onnx`) or, when the compile failed, a Cell-level graph captured in PyNative with forward hooks (`capture: pynative-hooks`, `error` set).
 */
export interface GraphDocument {
  kind: 'mindscope.graph';
  version: 1;
  meta: GraphMeta;
  error: GraphError;
  graphs: SubGraph[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  parameters: GraphParameter[];
  scopes: ScopeNode[];
  patterns: FusionPattern[];
}
export interface GraphMeta {
  mindsporeVersion: string;
  mode: 'GRAPH_MODE' | 'PYNATIVE_MODE';
  /**
   * STRICT, COMPATIBLE or LAX
   */
  syntaxLevel: string;
  /**
   * ir-dump only: how many ops were moved from the scope MindSpore named (the first caller of a shared function) to the Cell instance that ran them
   */
  rehomedOps?: number;
  /**
   * mindir: read from a MINDIR file (`python -m mindscope_runtime mindir`): the graph before backend optimisation; no source locations; syntaxLevel `unknown`, device `none`. onnx: read from an .onnx file with the `onnx` package (`python -m mindscope_runtime onnx`): ONNX op types; Cell scopes inferred from weight names, without Cell classes. summary: the graph a summary file recorded (`python -m mindscope_runtime summary DIR --graph-out`), same limits as mindir
   */
  capture: 'ir-dump' | 'pynative-hooks' | 'mindir' | 'summary' | 'onnx';
  /**
   * capture: onnx only: the model's header
   */
  onnx?: {
    irVersion: number;
    producer: string;
    /**
     * domain (ai.onnx for the default) → opset version
     */
    opsets: {
      [k: string]: number;
    };
    graph: string;
    outputs: string[];
    fileBytes?: number;
  };
  /**
   * capture: mindir only: the file's header
   */
  mindir?: {
    irVersion: string;
    mindIrVersion?: number | null;
    producer: string;
    graph: string;
    functions: number;
    primitives: number;
    graphAttrs?: {
      [k: string]: unknown;
    };
    fileBytes?: number;
  };
  target: string;
  rootCell?: string;
  device: string;
  inputs: InputDescription[];
  irFile?: string;
  irEntry?: string;
  compileSeconds?: number;
  parseSeconds?: number;
  createdAt?: string;
  jitConfig?: {
    [k: string]: unknown;
  };
  counts: {
    nodes: number;
    computeOps: number;
    edges: number;
    graphs: number;
    parameters: number;
    parameterElements: number;
  };
}
export interface InputDescription {
  shape: Shape;
  dtype: string;
}
export interface SubGraph {
  index: number;
  name: string;
  entry: boolean;
  params: string[];
  source: SourceLocation[];
}
export interface SourceLocation {
  file: string;
  line: number;
  endLine: number;
  column: number | null;
  endColumn: number | null;
  code: string;
  /**
   * true: inside MindSpore's own package
   */
  framework: boolean;
}
export interface GraphNode {
  /**
   * <graph index>:%<n> (IR) or cell<n> (hooks)
   */
  id: string;
  graph: string;
  /**
   * Conv2D, ReLU (PrimFunc_ stripped), Call, or a Cell class (hooks)
   */
  opType: string;
  primitive: string;
  name: string;
  /**
   * Default/block-Block/conv-Conv2d/Conv2D-op0
   */
  fullName: string;
  /**
   * the Cell scope path of the Cell instance that ran the op: fullName without its last segment, except for ops MindSpore named after another instance of a shared construct or function (see meta.rehomedOps)
   */
  scope: string;
  category: NodeCategory;
  instanceName?: string | null;
  inputs: NodeInput[];
  outputs: ValueDescription[];
  attrs: {
    [k: string]: unknown;
  };
  source: SourceLocation[];
  userSource: SourceLocation | null;
  frameworkSource: SourceLocation | null;
  pattern?: string;
}
export interface NodeInput {
  kind: 'node' | 'param' | 'graph' | 'monad' | 'const';
  ref?: string | null;
  text?: string;
  type?: string;
  dtype?: string | null;
  shape?: Shape;
}
export interface ValueDescription {
  type: 'tensor' | 'tuple' | 'list' | 'scalar' | 'monad' | 'func' | 'none' | 'other';
  dtype?: string | null;
  shape?: Shape;
  elements?: ValueDescription[];
}
export interface GraphEdge {
  /**
   * a node id or a parameter id
   */
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
  /**
   * null: a parameter of the whole module; else a subgraph's formal parameter
   */
  graph: string | null;
}
export interface ScopeNode {
  path: string;
  name: string;
  cellType: string | null;
  attrPath: string;
  opCount: number;
  totalOpCount: number;
  /**
   * parameter elements in this subtree
   */
  paramCount: number;
  paramTensors: number;
  children: ScopeNode[];
}
export interface FusionPattern {
  id: string;
  /**
   * e.g. Conv-BN-Act, MatMul-Bias
   */
  kind: string;
  nodes: string[];
  scope: string;
}
