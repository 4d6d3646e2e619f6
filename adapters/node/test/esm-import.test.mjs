// The kit is one CommonJS file; an ES module imports its names as well as
// require does (Node's loader reads them from the `exports.x =` lines).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serve, restore, KitError, capabilities } from '../convspec-kit.cjs';

test('an ES module imports the kit by name', () => {
  assert.equal(typeof serve, 'function');
  assert.equal(typeof restore, 'function');
  assert.equal(new KitError('unsupported', 'x').kind, 'unsupported');
  assert.deepEqual(capabilities({ window: {}, history: {} }), ['window', 'history']);
});
