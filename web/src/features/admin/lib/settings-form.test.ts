import type { InstanceSettings } from '@reelhouse/contract';
import { describe, expect, it } from 'vitest';
import { numberOrNull, settingsPatch } from './settings-form';

const saved: InstanceSettings = {
  name: 'Reelhouse',
  description: 'Videos',
  signupMode: 'open',
  maxVideoBytes: 1_000_000,
  maxVideoDurationSeconds: null,
  defaultQuotaBytes: -1,
  defaultDailyQuotaBytes: -1,
  ladderRungs: [240, 360, 480, 720, 1080],
  demoAccount: true,
  passwordSignIn: true,
  liveAllowed: 'everyone',
  maxLivesOnAir: 0,
  maxLivesOnAirPerUser: 1,
  maxLiveMinutes: 720,
};

describe('settingsPatch', () => {
  it('sends only what changed', () => {
    expect(settingsPatch(saved, { ...saved, signupMode: 'closed', ladderRungs: [360, 720] })).toEqual({
      patch: { signupMode: 'closed', ladderRungs: [360, 720] },
      errors: {},
    });
  });
  it('says when nothing changed', () => {
    expect(settingsPatch(saved, { ...saved })).toEqual({ patch: null, errors: { form: 'Nothing has changed' } });
  });
  it('gives the schema message per field', () => {
    const { patch, errors } = settingsPatch(saved, { ...saved, name: ' ', ladderRungs: [], maxVideoDurationSeconds: 1.5 });
    expect(patch).toBeNull();
    expect(errors).toEqual({
      name: 'name is required',
      ladderRungs: 'ladderRungs needs at least one rung',
      maxVideoDurationSeconds: 'maxVideoDurationSeconds must be a whole number',
    });
  });
  it('checks the limits on lives', () => {
    expect(settingsPatch(saved, { ...saved, liveAllowed: 'approved', maxLiveMinutes: 90 })).toEqual({
      patch: { liveAllowed: 'approved', maxLiveMinutes: 90 },
      errors: {},
    });
    const { errors } = settingsPatch(saved, { ...saved, maxLivesOnAir: -1, maxLiveMinutes: 0 });
    expect(errors).toEqual({ maxLivesOnAir: 'maxLivesOnAir must be at least 0', maxLiveMinutes: 'maxLiveMinutes must be at least 1' });
  });
});

describe('numberOrNull', () => {
  it('reads empty as no limit and keeps non-numbers for the schema to name', () => {
    expect(numberOrNull(' ')).toBeNull();
    expect(numberOrNull('600')).toBe(600);
    expect(settingsPatch(saved, { ...saved, maxVideoBytes: numberOrNull('abc') as number }).errors.maxVideoBytes).toBe('maxVideoBytes must be a number');
  });
});
