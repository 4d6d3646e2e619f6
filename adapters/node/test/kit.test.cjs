// Unit tests of the parts of the kit the conformance runs of the toys reach
// only by chance: `node --test test/` on the kit file itself, no build.

const assert = require('node:assert/strict');
const { test } = require('node:test');
const { partOf, peelSystem, restore, serialize, _internal } = require('../convspec-kit.cjs');

const { fromThrown, decodeLine, Script, Summarizer } = _internal;

test('restore maps rebuilt messages to the given ones they stand for, in order', () => {
  const given = [
    { role: 'system', content: 'be brief', name: 'sys' },
    { role: 'user', content: 'hi', id: 1 },
    { role: 'user', content: 'hi', id: 2 },
    { role: 'assistant', content: 'yo' },
  ];
  const rebuilt = [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi', id: 2 }, { role: 'assistant', content: 'summary' }];
  const got = restore(rebuilt, given);
  assert.equal(got[0], given[0]);
  assert.equal(got[1], given[2]); // not the first "hi": its id differs
  assert.equal(got[2], rebuilt[2]); // matches none: kept as it is
});

test('restore prefers a JSON-equal message, but never at the cost of matching the rest', () => {
  const a = { role: 'user', content: 'x', name: '' };
  const b = { role: 'user', content: 'x' };
  assert.equal(restore([{ ...b }], [a, b])[0], b); // B's copy is B, though it is part of A too
  const given = [a, { ...a }, b];
  const got = restore([{ ...b }, { ...a }, { ...b }], given); // a peeled copy of the first, then the others
  assert.equal(got[0], given[0]);
  assert.equal(got[1], given[1]);
  assert.equal(got[2], given[2]);
});

test('a rebuilt message that changed or added a member stands for nothing', () => {
  assert.equal(partOf({ role: 'user', content: 'hi' }, { role: 'user', content: 'hi', x: 1 }), true);
  assert.equal(partOf({ role: 'user', content: 'hi', x: 2 }, { role: 'user', content: 'hi', x: 1 }), false);
  assert.equal(partOf({ role: 'user', content: 'hi', y: 1 }, { role: 'user', content: 'hi' }), false);
});

test('peelSystem splits off a leading system prompt with string content only', () => {
  const m = [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }];
  assert.deepEqual(peelSystem(m), { system: 's', rest: [m[1]] });
  assert.deepEqual(peelSystem([{ role: 'system', content: [] }]).system, undefined);
});

test('serialize writes JSON.parse("1e400") back as a number and substitutes messages', () => {
  assert.equal(serialize([JSON.parse('1e400'), JSON.parse('-1e400'), 1.5]), '[1e400,-1e400,1.5]');
  const copy = { role: 'user' };
  assert.equal(serialize({ m: [copy] }, new Map([[copy, { role: 'user', content: 'original' }]])), '{"m":[{"role":"user","content":"original"}]}');
});

test('a byte that is not UTF-8 becomes two lone high surrogates, never U+FFFD', () => {
  assert.equal(decodeLine(Buffer.from([0x22, 0xff, 0x22])), '"\ud800\ud800"');
});

test('a thrown error keeps a known kind and its facts; anything else is internal_error', () => {
  const lib = Object.assign(new Error('execution.x: bad'), { kind: 'invalid_config', path: 'execution.x' });
  assert.deepEqual(fromThrown(lib), { code: -32001, message: 'execution.x: bad', data: { path: 'execution.x', kind: 'invalid_config' } });
  assert.deepEqual(fromThrown(new TypeError('oops')).data, { kind: 'internal_error' });
  assert.equal(fromThrown({ kind: 'no_such_kind', message: 'x' }).code, -32603);
});

test('the scripted summarizer records calls, plays the last script again, and times out', async () => {
  const s = new Summarizer([new Script({ reply: 'one' }, 's[0]'), new Script({ error: 'down' }, 's[1]')]);
  assert.equal(await s.call('p', 7), 'one');
  await assert.rejects(s.text('q'), /down/);
  await assert.rejects(s.text('r'), /down/);
  assert.deepEqual(s.calls, [{ prompt: 'p', max_tokens: 7 }, { prompt: 'q', max_tokens: 1024 }, { prompt: 'r', max_tokens: 1024 }]);
  const slow = new Summarizer([new Script({ reply: 'late', delay_ms: 50, timeout_ms: 5 }, 's')]);
  await assert.rejects(slow.call('p', 1), /did not answer within 5 ms/);
});
