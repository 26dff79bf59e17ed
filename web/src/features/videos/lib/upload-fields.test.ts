import { describe, expect, it } from 'vitest';
import { scheduleInstant, uploadFields, type UploadChoices } from './upload-fields';

const image = new File([new Uint8Array([1])], 't.png', { type: 'image/png' });
const base: UploadChoices = {
  title: '  Walk ',
  description: ' By the sea ',
  visibility: 'public',
  schedule: '',
  thumbnailSource: 'image',
  thumbnail: image,
  frameTime: 0,
};
const entries = (form: FormData) => Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`]));

describe('uploadFields', () => {
  it('sends the trimmed text, the image and the visibility', () => {
    expect(entries(uploadFields(base))).toEqual({ title: 'Walk', description: 'By the sea', thumbnail: 'file:t.png', visibility: 'public' });
  });

  it('sends thumbnailTime instead of the image when a frame is picked', () => {
    expect(entries(uploadFields({ ...base, thumbnailSource: 'frame', frameTime: 1.234 }))).toEqual({
      title: 'Walk',
      description: 'By the sea',
      thumbnailTime: '1.23',
      visibility: 'public',
    });
  });

  it("sends a private video's schedule as an ISO UTC instant, and no schedule for other visibilities", () => {
    const local = '2030-05-06T07:08';
    const sent = entries(uploadFields({ ...base, visibility: 'private', schedule: local }));
    expect(sent).toMatchObject({ visibility: 'private', publishAt: new Date(local).toISOString() });
    expect(sent.publishAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(entries(uploadFields({ ...base, visibility: 'unlisted', schedule: local }))).not.toHaveProperty('publishAt');
    expect(entries(uploadFields({ ...base, visibility: 'private' }))).not.toHaveProperty('publishAt');
  });

  it("takes the schedule in the viewer's own time zone", () => {
    const local = '2030-05-06T07:08';
    const at = new Date(scheduleInstant({ visibility: 'private', schedule: local })!);
    expect([at.getFullYear(), at.getMonth() + 1, at.getDate(), at.getHours(), at.getMinutes()]).toEqual([2030, 5, 6, 7, 8]);
    expect(scheduleInstant({ visibility: 'private', schedule: 'not a date' })).toBeNull();
  });
});
