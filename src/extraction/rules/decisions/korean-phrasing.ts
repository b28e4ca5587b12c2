import type { Kind } from './decision-types.js';

/**
 * Agents answer in the user's language. In Korean a choice has the structure of "since X, I'll Y": a clause of reason
 * (-므로, 때문에, 위해, -니까, -라서) or of contrast (대신 "instead", 별도 "separate") and a verb of intent or action at
 * the end of the sentence (-겠습니다, or a formal action ending -ㅂ니다 such as 둡니다, 올립니다, 합니다). The copula
 * 입니다 and stative -습니다 endings ("...일 가능성이 높습니다", it is likely) describe, they do not decide; a verb
 * of looking or of the process at the end ("...위해 파일을 읽겠습니다", "...커밋하겠습니다") is a step, whatever its reason.
 */

const hangul = /[\uAC00-\uD7A3]/;
const because = /(?:므로|때문에|위해|니까|라서)/;

/** A Hangul syllable whose final consonant is ㅂ (합, 둡, 립), the formal action ending before 니다. */
const finalB = (syllable: string) => {
  const index = syllable.charCodeAt(0) - 0xac00;
  return index >= 0 && index < 11172 && index % 28 === 17;
};

function endsInIntent(sentence: string): boolean {
  const s = sentence.replace(/\s*\([^)]*\)/g, '').replace(/[\s.!*:]+$/, '');
  if (/(?:겠습니다|겠어요|할게요|하겠음)$/.test(s)) return true;
  const before = /(.)니다$/.exec(s)?.[1];
  return before !== undefined && finalB(before) && before !== '입' && before !== '습';
}

/**
 * The verb that ends a step, not a choice: checking, reading, looking into, querying, reviewing, running, committing,
 * pushing, waiting, recording ("변경 사항을 확인하기 위해 파일을 읽겠습니다", "테스트를 실행합니다").
 */
const stepVerb = /(?:확인|읽|살펴|조회|검토|실행|커밋|푸시|대기|기록)[가-힣]*$/;
const lastWord = (sentence: string) =>
  sentence
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/[\s.!*:]+$/, '')
    .split(/\s+/)
    .at(-1) ?? '';

/** A Korean sentence that states a choice with its reason or its alternative. */
export function isKoreanDecision(sentence: string): boolean {
  if (!hangul.test(sentence) || !endsInIntent(sentence) || stepVerb.test(lastWord(sentence))) return false;
  return because.test(sentence) || /대신|별도/.test(sentence);
}

/** The reason: the clause up to the connective, else (for 대신 / 별도) the sentence before. */
export function koreanReason(sentence: string, previous: string | undefined): string {
  const at = because.exec(sentence);
  return at ? sentence.slice(0, at.index + at[0].length).trim() : (previous ?? '');
}

/** Skip (leave as is, hold) and workaround (impossible, instead) read from the Korean words; else null. */
export function koreanType(text: string): Kind | null {
  if (/그대로 둡|건너뛰|스킵|보류/.test(text)) return 'skip';
  if (/불가|대신|지원하지 않|안 됩니다/.test(text)) return 'workaround';
  return null;
}
