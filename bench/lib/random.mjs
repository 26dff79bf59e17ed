/** Small, seedable randomness for benchmark data: the same seed makes the same catalogue. */

/** A fast 32-bit PRNG returning floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Picks indexes 0..n-1 with Zipf's law (rank k with weight 1/(k+1)^s), as word and popularity
 * frequencies go: a few items very often, most rarely.
 */
export function zipfPicker(rand, n, s) {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    total += 1 / Math.pow(k + 1, s);
    cdf[k] = total;
  }
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Real words people search for come first (so "the" is the commonest), then made-up ones. */
const COMMON = [
  'the',
  'and',
  'of',
  'to',
  'in',
  'a',
  'my',
  'how',
  'with',
  'for',
  'video',
  'new',
  'best',
  'on',
  'day',
  'music',
  'live',
  'first',
  'review',
  'game',
  'travel',
  'cooking',
  'guitar',
  'tutorial',
  'city',
  'night',
  'trip',
  'home',
  'family',
  'dog',
  'cat',
  'world',
  'vlog',
  'part',
  'road',
  'summer',
  'winter',
  'garden',
  'bike',
  'coffee',
  'river',
  'mountain',
  'song',
  'lesson',
  'build',
  'test',
  'race',
  'beach',
  'walk',
  'photos',
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'bo', 'da', 'fe', 'gu', 'hi', 'jo', 'pa', 'qui', 'ri', 'su', 'ty'];

export function makeVocabulary(rand, size) {
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < size) {
    const parts = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < parts; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}
