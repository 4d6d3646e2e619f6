// Counts the mixed corpus (written by `go test ./reference/tokens -run
// TestWriteMixedCorpus`) with npm tiktoken and gpt-tokenizer, and prints
// each one's millions of tokens per CPU-second, as BenchmarkCountMixed
// reports it for reference/tokens: a warm-up count, then counts for at
// least two seconds, CPU time from process.cpuUsage.
import { readFileSync } from "node:fs";
import { get_encoding } from "tiktoken";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";

const text = readFileSync(process.argv[2], "utf8");
const tiktoken = get_encoding("cl100k_base");

function measure(name, count) {
  const tokens = count(); // warm-up, and the count every run must repeat
  let runs = 0;
  const start = process.cpuUsage();
  const wall = Date.now();
  while (Date.now() - wall < 2000 || runs < 2) {
    if (count() !== tokens) throw new Error(`${name}: the count changed between runs`);
    runs++;
  }
  const cpu = process.cpuUsage(start);
  const seconds = (cpu.user + cpu.system) / 1e6;
  console.log(`${name}\t${tokens}\t${((tokens * runs) / 1e6 / seconds).toFixed(2)}`);
}

measure("npm tiktoken 1.0.22", () => tiktoken.encode(text).length);
measure("gpt-tokenizer 2.9.0", () => encode(text).length);
tiktoken.free();
