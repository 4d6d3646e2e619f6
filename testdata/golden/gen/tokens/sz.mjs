import { get_encoding } from "tiktoken";
const enc = get_encoding("cl100k_base");
const n = parseInt(process.argv[2]); const unit = process.argv[3] ?? "a";
const s = unit.repeat(n);
const t = Date.now();
try { const ids = enc.encode_ordinary(s); console.log(n, unit, ids.length, Date.now() - t, "ms"); }
catch (e) { console.log(n, unit, "ERROR", String(e).slice(0, 200), Date.now() - t, "ms"); }
