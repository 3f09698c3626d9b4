// The picture a course page opens with (domain coursePicture): the page and the server's first view
// draw the same one.
import { describe, expect, it } from 'vitest';
import { coursePicture } from '../../domain/values';

describe('coursePicture', () => {
  it("the preview's picture first, else the course's image, else none", () => {
    expect(coursePicture({ image: '/a.jpg', preview_video: { picture_url: '/p.jpg' } })).toBe('/p.jpg');
    expect(coursePicture({ image: '/a.jpg', preview_video: { picture_url: null } })).toBe('/a.jpg');
    expect(coursePicture({ image: '/a.jpg', preview_video: null })).toBe('/a.jpg');
    expect(coursePicture({ image: null })).toBeNull();
    expect(coursePicture({})).toBeNull();
  });
});
