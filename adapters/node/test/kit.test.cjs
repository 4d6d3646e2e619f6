// Unit tests of the parts of the kit the conformance runs of the toys reach
// only by chance: `npm test` (node --test) on the kit file itself, no build.

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
  assert.equal(fromThrown(new TypeError('oops')).data.kind, 'internal_error');
  assert.match(fromThrown(new TypeError('oops')).data.traceback, /^TypeError: oops\n    at /);
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

/** Which settles first: `promise`, or the next turn of the event loop (nothing that waits on a timer can). */
const settlesAtOnce = (promise) =>
  Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setImmediate(() => resolve(false)))]);

test("the script's numbers fix the outcome, never two timers racing (D-44)", async () => {
  // delay below timeout: the reply or the error at once, the delay not slept.
  const quick = new Summarizer([new Script({ reply: 'now', delay_ms: 100000, timeout_ms: 200000 }, 's')]);
  const reply = quick.call('p', 1);
  assert.equal(await settlesAtOnce(reply), true);
  assert.equal(await reply, 'now');
  const failing = new Summarizer([new Script({ error: 'down', delay_ms: 1, timeout_ms: 1000 }, 's')]);
  const failed = failing.text('p');
  assert.equal(await settlesAtOnce(failed), true);
  await assert.rejects(failed, /down/);
  // delay at or above timeout: never the reply; a timeout after timeout_ms.
  const equal = new Summarizer([new Script({ reply: 'never', delay_ms: 5, timeout_ms: 5 }, 's')]);
  const late = equal.call('p', 1);
  assert.equal(await settlesAtOnce(late), false);
  await assert.rejects(late, /did not answer within 5 ms/);
  // With the library's own signal, no timer of the kit's: it waits to be cancelled.
  const controller = new AbortController();
  const cancelled = new Summarizer([new Script({ reply: 'never', delay_ms: 30000, timeout_ms: 1 }, 's')]).call('p', 1, { signal: controller.signal });
  assert.equal(await settlesAtOnce(cancelled), false);
  controller.abort(new Error('the library gave up'));
  await assert.rejects(cancelled, /the library gave up/);
});

const { Readable } = require('node:stream');
const { serve, contentChars, countChars4 } = require('../convspec-kit.cjs');

/** Serves the requests (JSON values) and resolves to the responses, parsed, once the kit exits. */
function exchange(requests, options) {
  return new Promise((resolve) => {
    const out = [];
    serve({
      name: 't',
      version: '0',
      ...options,
      input: Readable.from([requests.map((r) => JSON.stringify(r) + '\n').join('')]),
      output: { write: (chunk, callback) => (out.push(chunk), callback?.(), true) },
      exit: () => resolve(out.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))),
    });
  });
}

const req = (id, method, params) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

test('levels, formats and trimmers are declared, and trimmer.trim calls the trimmer named', async () => {
  const trimmers = [{ name: 't', bound: 'tokens', counter: 'chars4', guarantees: ['bound'], trim: (m, n) => m.slice(0, n) }];
  const rs = await exchange(
    [req(1, 'initialize', { protocol: 1, suite: 'convspec' }),
     req(2, 'trimmer.trim', { trimmer: 't', limit: 1, messages: [{ role: 'u' }, { role: 'v' }] }),
     req(3, 'trimmer.trim', { trimmer: 'x', limit: 1, messages: [] }),
     req(4, 'trimmer.trim', { trimmer: 't', limit: -1, messages: [] })],
    { levels: ['core'], formats: ['openai'], trimmers },
  );
  assert.deepEqual(rs[0].result, {
    protocol: 1, implementation: { name: 't', version: '0' }, capabilities: ['trimmer'], levels: ['core'], formats: ['openai'],
    trimmers: [{ name: 't', bound: 'tokens', counter: 'chars4', guarantees: ['bound'] }],
  });
  assert.deepEqual(rs[1].result, { messages: [{ role: 'u' }] });
  assert.equal(rs[2].error.data.kind, 'invalid_params');
  assert.equal(rs[3].error.data.kind, 'invalid_params');
});

test('a wrong declaration is refused when serving starts', () => {
  const ok = { name: 't', bound: 'messages', guarantees: [], trim: (m) => m };
  for (const [bad, message] of [
    [{ levels: [] }, /levels must be a non-empty array/],
    [{ formats: ['gemini'] }, /formats: unknown "gemini"/],
    [{ trimmers: [{ ...ok, counter: 'chars4' }] }, /counter must be absent/],
    [{ trimmers: [{ ...ok, bound: 'tokens' }] }, /counter must be/],
    [{ trimmers: [ok, ok] }, /declared twice/],
    [{ trimmers: [{ ...ok, guarantees: ['fast'] }] }, /unknown "fast"/],
    [{ trimmers: [{ ...ok, trim: undefined }] }, /trim must be a function/],
  ]) {
    assert.throws(() => serve({ name: 't', version: '0', ...bad, input: Readable.from([]), output: { write: () => true }, exit: () => {} }), message);
  }
});

test('the second declaration is written as given, and trimmer.count answers with the native counter (D-60)', async () => {
  const trimmers = [{
    name: 'lib', version: 2, bound: 'tokens', counter: 'native', count: { over: 'message' }, system: 'first', start: 'user',
    limit_min: 1, markers: { role: 'system', prefix: 'Skipped ' }, guarantees: ['subsequence', 'system', 'bound'],
    fallback: 'last_message', trim: (m) => m, nativeCount: (m) => 3 + m.length * 4,
  }];
  const rs = await exchange(
    [req(1, 'initialize', { protocol: 1, suite: 'convspec' }),
     req(2, 'trimmer.count', { trimmer: 'lib', messages: [{ role: 'user', content: 'a' }] }),
     req(3, 'trimmer.count', { trimmer: 'nope', messages: [] })],
    { trimmers },
  );
  assert.deepEqual(rs[0].result.trimmers, [{
    name: 'lib', bound: 'tokens', counter: 'native', guarantees: ['subsequence', 'system', 'bound'], version: 2,
    system: 'first', markers: { role: 'system', prefix: 'Skipped ' }, limit_min: 1, start: 'user', fallback: 'last_message',
    count: { over: 'message' },
  }]);
  assert.deepEqual(rs[1].result, { count: 7 });
  assert.equal(rs[2].error.data.kind, 'invalid_params');
});

test('a second declaration that contradicts itself is refused, naming the member', () => {
  const ok = { name: 't', bound: 'messages', guarantees: ['bound'], trim: (m) => m };
  for (const [bad, message] of [
    [{ ...ok, head: 2 }, /trimmers\[0\]\.head needs "version": 2/],
    [{ ...ok, version: 2, system: 'first' }, /trimmers\[0\]\.system .* does not claim "system"/],
    [{ ...ok, version: 2, guarantees: [], slack: 'unit' }, /trimmers\[0\]\.slack qualifies the bound/],
    [{ ...ok, version: 2, count: { over: 'joined' } }, /trimmers\[0\]\.count says how tokens are counted/],
    [{ ...ok, version: 2, guarantees: ['head'], head: 1 }, /"head" is not listed/],
    [{ ...ok, version: 2, bound: 'tokens', counter: 'native' }, /nativeCount must be a function/],
    [{ ...ok, bound: 'tokens', counter: 'chars4', nativeCount: () => 1 }, /nativeCount is given/],
    [{ ...ok, version: 2, markers: { role: 'tool', prefix: 'x' } }, /markers\.role/],
    [{ ...ok, version: 2, guarantees: ['bound', 'units'], fallback: 'last_message' }, /trimmers\[0\]\.fallback .* contradicts the claim "units"/],
    [{ ...ok, version: 2, fallback: 'last_message', refuses: 'nothing_fits' }, /trimmers\[0\]\.fallback .* refuses/],
  ]) {
    assert.throws(() => serve({ name: 't', version: '0', trimmers: [bad], input: Readable.from([]), output: { write: () => true }, exit: () => {} }), message);
  }
});

test('chars4 counts content characters as EST-2 – EST-5 do, rounded per message', () => {
  const chars = (text) => contentChars({ role: 'user', content: JSON.parse(text) });
  assert.equal(chars('"é你😀"'), 4);
  assert.equal(chars('[ {"type": "text", "text": "hi 😀"} ]'), 32);
  assert.equal(chars('1e400'), 4); // a number too large for a double: JSON.stringify writes null
  assert.equal(chars('null'), 0);
  assert.equal(contentChars({ role: 'user' }), 0);
  assert.equal(countChars4([{ role: 'u', content: 'a' }, { role: 'u', content: 'b' }]), 2);
});

test('an internal error is answered with its stack', async () => {
  const history = { classify: () => ({}).missing.x, prune: () => ({}), build: () => ({}) };
  const [r] = await exchange([req(1, 'history.classify', { messages: [] })], { history });
  assert.equal(r.error.data.kind, 'internal_error');
  assert.match(r.error.data.traceback, /TypeError: Cannot read properties of undefined/);
});
