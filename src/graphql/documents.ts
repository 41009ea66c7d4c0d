import { createHash } from "node:crypto";
import type { DocumentStore } from "@apollo/server";
import { DocumentNode, GraphQLError, GraphQLSchema, parse, specifiedRules, validate } from "graphql";

/** How many validated documents are kept, and how much text they may hold together (a tree weighs some thirty times its text). */
const KEPT_DOCUMENTS = 1000;
const KEPT_TEXT = 1_000_000;

interface Kept {
  text: string;
  hash: string;
  document: DocumentNode;
}

/**
 * The GraphQL documents of requests: parsed here, once per text, and kept once validated. The
 * guard looks a text up by itself and parses only a text it has not seen pass; Apollo is handed
 * this as its `documentStore`, where it finds every document the guard let through and validated,
 * so it neither parses nor validates it again. The most recently used are kept.
 */
export class GraphQLDocuments implements DocumentStore {
  private readonly byText = new Map<string, Kept>();
  private readonly byHash = new Map<string, Kept>();
  private keptText = 0;

  constructor(private readonly schema: GraphQLSchema) {}

  /** The tree of a text (a syntax error is thrown as graphql-js words it). */
  parse(text: string, maxTokens: number): DocumentNode {
    return parse(text, { maxTokens });
  }

  /** The tree of a text that passed the guard and validation before, if it is still kept. */
  validated(text: string): DocumentNode | undefined {
    const kept = this.byText.get(text);
    if (!kept) return undefined;
    this.byText.delete(text);
    this.byText.set(text, kept);
    return kept.document;
  }

  /** Validates a tree the guard let through; a valid one is kept, for the next request of its text and for Apollo. */
  validate(text: string, document: DocumentNode): readonly GraphQLError[] {
    const errors = validate(this.schema, document, specifiedRules);
    if (errors.length === 0) this.keep({ text, hash: createHash("sha256").update(text).digest("hex"), document });
    return errors;
  }

  private keep(kept: Kept): void {
    if (kept.text.length > KEPT_TEXT || this.byText.has(kept.text)) return;
    this.byText.set(kept.text, kept);
    this.byHash.set(kept.hash, kept);
    this.keptText += kept.text.length;
    for (const [text, oldest] of this.byText) {
      if (this.byText.size <= KEPT_DOCUMENTS && this.keptText <= KEPT_TEXT) break;
      this.byText.delete(text);
      this.byHash.delete(oldest.hash);
      this.keptText -= text.length;
    }
  }

  /** Apollo asks by its schema's hash, a colon and the SHA-256 of the text; this service has one schema. */
  async get(key: string): Promise<DocumentNode | undefined> {
    return this.byHash.get(key.slice(key.lastIndexOf(":") + 1))?.document;
  }

  /** Apollo stores what it parsed and validated itself: only a document dropped here since the guard saw it, kept again at its next request. */
  async set(): Promise<void> {}

  async delete(): Promise<void> {}
}
