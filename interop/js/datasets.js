// Writes the data sets of the .hgrm interop check into a directory, deterministically:
// one value per line, or "value count".
//
//   node datasets.js DIR
"use strict";
const fs = require("fs");
const path = require("path");

// mulberry32: a small 32-bit generator, the same sequence on every platform.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Latency-like: 20,000 lognormal values around 150 µs in ns, and a 1 % tail up to 1 s.
function latency() {
  const next = generator(42);
  const lines = [];
  for (let i = 0; i < 20000; i++) {
    let v;
    if (next() < 0.01) {
      v = 1e8 + next() * 9e8;
    } else {
      const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      v = Math.exp(Math.log(150000) + 1.2 * z);
    }
    lines.push(Math.min(1e9, Math.max(1, Math.round(v))));
  }
  return lines;
}

// Small values (all exact in every layout), zero included, with counts.
function small() {
  const lines = [];
  for (let v = 0; v <= 40; v++) {
    if (v % 7 !== 3) lines.push(`${v} ${((v * 7) % 5) + 1}`);
  }
  return lines;
}

// Values over many octaves, and the bucket edges 2^k - 1 and 2^k up to 2^24. (The cost of
// the reference grows with the largest value: at 5 significant digits it walks 2^17
// counters per octave above 2^17, so the wide and huge-count sets stay small in value.)
function wide() {
  const lines = [];
  for (let k = 0; k <= 31; k++) lines.push(`${Math.floor(Math.pow(1.7, k))} ${k + 1}`);
  for (let k = 1; k <= 24; k++) lines.push(`${Math.pow(2, k) - 1}`, `${Math.pow(2, k)}`);
  return lines;
}

// Counts in the billions to trillions (about 1.4e12 in all).
function hugeCounts() {
  return [
    "100 1000000000000",
    "2500 300000000000",
    "123456 5000000000",
    "999999 7",
    "1048575 123456789",
    "1000 99999999999",
  ];
}

const DATASETS = {
  latency: latency(),
  small: small(),
  single: ["1000007"],
  wide: wide(),
  "huge-counts": hugeCounts(),
  empty: [],
};

const dir = process.argv[2];
fs.mkdirSync(dir, { recursive: true });
for (const [name, lines] of Object.entries(DATASETS)) {
  fs.writeFileSync(path.join(dir, `${name}.txt`), lines.map((l) => `${l}\n`).join(""));
}
process.stdout.write(Object.keys(DATASETS).join(" ") + "\n");
