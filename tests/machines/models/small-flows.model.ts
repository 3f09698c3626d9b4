/** The small flows of the pages: add to cart, an image field's upload, the sign-in link. */
import assert from 'node:assert/strict';
import { addToCartMachine } from '../../../machines/cart/add-to-cart.machine';
import { selectAddResult, selectAdding } from '../../../machines/cart/add-to-cart.selectors';
import { imageUploadMachine } from '../../../machines/registration/image-upload.machine';
import { selectImageError, selectImageName, selectImageUploading } from '../../../machines/registration/image-upload.selectors';
import { signInLinkMachine } from '../../../machines/registration/sign-in-link.machine';
import { selectLinkError, selectLinkSending, selectLinkSent } from '../../../machines/registration/sign-in-link.selectors';
import { MSG } from '../../../domain/messages';
import { defineModel } from '../support/model';

export const addToCartModel = defineModel({
  machine: addToCartMachine,
  file: 'machines/cart/add-to-cart.machine.ts',
  // Mounted with one copy; the press carries the quantity chosen since (2): that is what is added.
  input: { courseId: 7, qty: 1 },
  userEvents: [{ type: 'cart.add', courseId: 7, qty: 2 }],
  outcomes: {
    addToShopCart: {
      done: [{ added: true }, { added: false, reason: 'inCart' }, { added: false, reason: 'noPlan' }],
      error: [new Error('network')],
    },
  },
  effects: ['log'],
  accepts: (s) => (s.matches('idle') ? ['cart.add'] : []),
  check: (s, step) => {
    assert.equal(selectAdding(s), s.matches('adding'));
    if (s.matches('adding')) assert.deepEqual(step.scripts.inputsOf('addToShopCart').at(-1), { courseId: 7, qty: 2 });
    const ev = step.event as { type: string; output?: { added: boolean; reason?: string } };
    if (ev.type === 'xstate.done.actor.addToShopCart') {
      assert.equal(selectAddResult(s), ev.output!.added ? 'added' : ev.output!.reason);
      assert.deepEqual(step.effects, []);
    }
    if (ev.type === 'xstate.error.actor.addToShopCart') {
      assert.equal(selectAddResult(s), 'failed');
      assert.deepEqual(step.effects.map((e) => e.type), ['log']);
    }
    // What the last press found stays shown while the next one adds.
    if (ev.type === 'cart.add') assert.equal(selectAddResult(s), s.context.result);
    if (step.index === 0) assert.equal(selectAddResult(s), null);
  },
});

const image = (name: string, type: string, size = 10) => Object.assign(new Blob([new Uint8Array(size)], { type }), { name });

export const imageUploadModel = defineModel({
  machine: imageUploadMachine,
  file: 'machines/registration/image-upload.machine.ts',
  userEvents: [{ type: 'file.add', file: image('me.png', 'image/png') }, { type: 'file.add', file: image('cv.pdf', 'application/pdf') }, { type: 'file.remove' }],
  outcomes: {
    uploadFile: { done: [{ success: true, fileName: ['stored-me.png'] }], error: [new Error('network')] },
  },
  accepts: (s) => (s.matches('idle') ? ['file.add', 'file.remove'] : []),
  check: (s, step) => {
    assert.equal(selectImageUploading(s), s.matches('uploading'));
    if (s.matches('uploading')) assert.equal((step.scripts.inputsOf('uploadFile').at(-1) as { imageinput: { name: string } }).imageinput.name, 'me.png');
    if (s.matches('idle')) assert.equal(s.context.file, null, 'the file is kept only while it is sent');
    const ev = step.event as { type: string; file?: { name: string } };
    if (ev.type === 'file.add' && ev.file?.name === 'cv.pdf') {
      assert.equal(selectImageName(s), null);
      assert.notEqual(selectImageError(s), null, 'a file that is not an image is refused with the form rule’s message');
    }
    if (ev.type === 'xstate.done.actor.uploadFile') assert.deepEqual([selectImageName(s), selectImageError(s)], ['stored-me.png', null]);
    if (ev.type === 'xstate.error.actor.uploadFile') assert.deepEqual([selectImageName(s), selectImageError(s)], [null, MSG.IMAGE_UPLOAD_FAILED]);
    if (ev.type === 'file.remove') assert.deepEqual([selectImageName(s), selectImageError(s)], [null, null]);
  },
});

export const signInLinkModel = defineModel({
  machine: signInLinkMachine,
  file: 'machines/registration/sign-in-link.machine.ts',
  input: { email: 'somchai@example.com', courseId: 3 },
  userEvents: [{ type: 'link.request' }],
  outcomes: {
    requestSignInLink: { done: [{ success: true }], error: [{ status: 429, code: 'TOO_MANY_REQUESTS', msg: 'ลองใหม่ภายหลัง' }, new Error('network')] },
  },
  accepts: (s) => (s.matches('idle') ? ['link.request'] : []),
  check: (s, step) => {
    assert.equal(selectLinkSending(s), s.matches('sending'));
    assert.equal(selectLinkSent(s), s.matches('sent'));
    if (s.matches('sending')) {
      assert.deepEqual(step.scripts.inputsOf('requestSignInLink').at(-1), { email: 'somchai@example.com', course_id: 3 });
      assert.equal(selectLinkError(s), null);
    }
    const ev = step.event as { type: string; error?: unknown };
    if (ev.type === 'xstate.error.actor.requestSignInLink') {
      // The server's msg when it sent one, else the error as text.
      assert.equal(selectLinkError(s), ev.error instanceof Error ? 'Error: network' : 'ลองใหม่ภายหลัง');
    }
  },
});
