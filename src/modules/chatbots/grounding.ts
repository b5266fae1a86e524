import type { ChatMessage } from '../../knowledge/chat-model.js';
import type { RetrievedPassage } from '../../knowledge/retrieval.js';

/**
 * How a chatbot's question reaches the model: its own prompt, then the rule to answer from the
 * numbered passages and cite them as [n], then the passages, then the conversation so far and the
 * question. And which passages an answer used: those it cites by number.
 */

/** Earlier messages of the conversation sent with a question: enough for follow-ups, bounded in cost. */
export const HISTORY_MESSAGES = 10;

const RULES =
  'Answer from the numbered passages below when they hold the answer, and cite each passage you use as [n], e.g. [1] or [2][3]. ' +
  'If the passages do not hold the answer, say that you do not know rather than guess.';

/** The passages as the model reads them: `[n] title` and the text, numbered from 1. */
function passageBlock(passages: readonly RetrievedPassage[]): string {
  if (passages.length === 0) return 'Passages: none were found for this question.';
  return `Passages:\n\n${passages.map((p, i) => `[${i + 1}] ${p.source.title}\n${p.content}`).join('\n\n')}`;
}

/**
 * The messages of one request to the model; `history` is the conversation as it is to be sent
 * (the caller reads the last `HISTORY_MESSAGES`).
 * @example groundedMessages('You answer HR questions.', passages, history, 'How many days of leave?')
 */
export function groundedMessages(prompt: string, passages: readonly RetrievedPassage[], history: readonly ChatMessage[], question: string): ChatMessage[] {
  const system = [prompt.trim(), RULES, passageBlock(passages)].filter((part) => part !== '').join('\n\n');
  return [{ role: 'system', content: system }, ...history, { role: 'user', content: question }];
}

/** A citation as answers carry it: the passage's number in the prompt, its text, score and source. */
export interface Citation {
  index: number;
  content: string;
  score: number;
  source: Record<string, unknown>;
}

const MARKER = /\[(\d{1,3})\]/g;

/**
 * The passages an answer used: the ones it cites as [n], in the order of their numbers; when it
 * cites none (a model that ignores the rule), every passage it was given, since it was grounded in
 * them.
 */
export function citationsOf(answer: string, passages: readonly RetrievedPassage[]): Citation[] {
  const cited = new Set<number>();
  for (const match of answer.matchAll(MARKER)) {
    const n = Number(match[1]);
    if (n >= 1 && n <= passages.length) cited.add(n);
  }
  const numbers = cited.size > 0 ? [...cited].sort((a, b) => a - b) : passages.map((_, i) => i + 1);
  return numbers.map((n) => {
    const passage = passages[n - 1]!;
    return { index: n, content: passage.content, score: passage.score, source: { ...passage.source } };
  });
}
