import { VIDEO_FAILURE_REASONS } from '@reelhouse/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@/i18n/i18n';
import { failureReasonText } from './failure-reason';

describe('failureReasonText', () => {
  afterEach(async () => {
    await changeLanguage('en');
  });

  it("shows each of the server's reasons in the interface's language, and an unknown one as it came", async () => {
    expect(failureReasonText(VIDEO_FAILURE_REASONS.noVideo)).toBe('The file has no video track.');
    await changeLanguage('fr');
    expect(failureReasonText(VIDEO_FAILURE_REASONS.noVideo)).toBe('Le fichier n’a pas de piste vidéo.');
    expect(failureReasonText(VIDEO_FAILURE_REASONS.unknown)).toBe('Le traitement a échoué');
    await changeLanguage('ja');
    expect(failureReasonText(VIDEO_FAILURE_REASONS.timeout)).toBe('処理に時間がかかりすぎたため停止しました。');
    expect(failureReasonText('A reason from a newer server')).toBe('A reason from a newer server');
  });
});
