// The profile document written by `python -m mindscope_runtime profile`
// (schemas/profile-document.schema.json, kind "mindscope.profile", version 1), and by
// `profile-dist`, which adds the optional `ranks` section.

export type {
  OpRow,
  TypeRow,
  CellRow,
  StepRow,
  TraceEvent,
  ProfileMeta,
  ProfileDocument,
  RankStep,
  RankSummary,
  StragglerRow,
  RanksSection,
} from './generated/profileDocument';
import type { ProfileDocument, RanksSection } from './generated/profileDocument';

/** The ranks section when the document has one this code understands. */
export function ranksOf(doc: ProfileDocument): RanksSection | undefined {
  // The document is untrusted JSON: a newer section version is ignored, not misread.
  const ranks = doc.ranks as { version?: unknown; ranks?: unknown } | undefined;
  return ranks?.version === 1 && Array.isArray(ranks.ranks) ? doc.ranks : undefined;
}

export const PROFILE_MIME = 'application/vnd.mindscope.profile+json';

export function isProfileDocument(value: unknown): value is ProfileDocument {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof ProfileDocument, unknown>>;
  return (
    v.kind === 'mindscope.profile' &&
    v.version === 1 &&
    Array.isArray(v.ops) &&
    Array.isArray(v.steps) &&
    typeof v.timeline === 'object' &&
    v.timeline !== null
  );
}
