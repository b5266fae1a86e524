/**
 * Text for the knowledge base workloads (W14, W15): paragraphs of about 60 words drawn from a
 * vocabulary of English function words and 20,000 made-up words, by a Zipf law (the word of rank r
 * is about 1/r as frequent as the first), as real prose is. Deterministic: every run indexes and
 * searches the same text.
 */

/** The most frequent ranks: English function words, as in real text (searches leave them out). */
const FUNCTION_WORDS = (
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by ' +
  'but what some we can out other were all there when up use your how said an each she which do their if will way about many then them would'
).split(' ');

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'tor', 'vel', 'sa', 'ri', 'dun', 'pe', 'gra', 'fol', 'bi', 'zu', 'mar', 'en', 'qui', 'ho', 'tes', 'ly'];
const MADE_UP = 20_000;

/** A small fast PRNG (mulberry32) from a seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function madeUpWord(i: number): string {
  let word = '';
  let n = i + SYLLABLES.length;
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
}

const VOCABULARY = [...FUNCTION_WORDS, ...Array.from({ length: MADE_UP }, (_, i) => madeUpWord(i))];
/** Cumulative Zipf weights (exponent 1) of the vocabulary, for sampling by binary search. */
const CUMULATIVE = (() => {
  const sums = new Float64Array(VOCABULARY.length);
  let total = 0;
  VOCABULARY.forEach((_, rank) => (sums[rank] = total += 1 / (rank + 1)));
  return sums.map((x) => x / total);
})();

function zipfWord(next: () => number): string {
  const x = next();
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (CUMULATIVE[mid]! < x) low = mid + 1;
    else high = mid;
  }
  return VOCABULARY[low]!;
}

/** `count` words drawn by the Zipf law. */
export function words(next: () => number, count: number): string[] {
  return Array.from({ length: count }, () => zipfWord(next));
}

/** Record number `n`'s title, body and topic: the same for every run. */
export function knowledgeRecord(n: number): { title: string; body: string; topic: string } {
  const next = random(n * 7919 + 17);
  const title = words(next, 4).join(' ');
  const body = `${words(next, 60).join(' ')}.`;
  const topic = words(next, 2).join(' ');
  return { title: title[0]!.toUpperCase() + title.slice(1), body: body[0]!.toUpperCase() + body.slice(1), topic };
}

/** A question about record number `n`, as a user would write it: function words and four words of its body. */
export function questionAbout(n: number, seed: number): string {
  const next = random(seed);
  const body = knowledgeRecord(n).body.toLowerCase().replace('.', '').split(' ');
  const picked = Array.from({ length: 4 }, () => body[Math.floor(next() * body.length)]!);
  return `what is the ${picked.join(' ')}`;
}
