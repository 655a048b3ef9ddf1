// The reference side of the .hgrm interop check: hdr-histogram-js's
// outputPercentileDistribution for the values in a file.
//
//   node hgrm.js FILE SF TICKS RATIO [csv]   one distribution
//   node hgrm.js FILE --all [RAW]            every variant the check compares, each after a
//                                            "#### sf=S ticks=T ratio=R csv=C" line; with
//                                            RAW, also writes there, per sf, the ticks=5
//                                            ratio=1 plain variant with the raw Max
//
// FILE holds one value per line, or "value count". The histogram has lowest discernible
// value 1, highest trackable value 2^53 - 1 and SF significant digits (1..5), 64-bit counts.
//
// Max: hdr-histogram-js prints its raw maxValue field (the largest value recorded), where
// Java's outputPercentileDistribution prints getMaxValue(), the highest value equivalent to
// it. Picollo keeps bucket counts only, so it follows Java; this script applies Java's rule
// except in the RAW file.
//
// Speed: every call of outputPercentileDistribution walks the counts up to the largest
// value three times (percentiles, mean, deviation), slowly at 5 significant digits. The mean
// and the deviation depend on the counts only, so --all computes each once per histogram
// with the library's own getters and hands the library those results for every variant.
"use strict";
const fs = require("fs");
const hdr = require("hdr-histogram-js");

// The variants the check compares; core/examples/hgrm.rs lists the same ones.
const SIGNIFICANT_DIGITS = [1, 2, 3, 4, 5];
const TICKS = [5, 2, 1];
const RATIOS = ["1", "1000"];
const CSV = [false, true];

function readValues(file) {
  const pairs = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const fields = line.trim().split(/\s+/).filter((f) => f !== "");
    if (fields.length === 0) continue;
    if (fields.length > 2) throw new Error(`bad line: ${line}`);
    const value = Number(fields[0]);
    const count = fields.length === 2 ? Number(fields[1]) : 1;
    if (!Number.isSafeInteger(value) || !Number.isSafeInteger(count) || value < 0 || count < 1) {
      throw new Error(`bad line: ${line}`);
    }
    pairs.push([value, count]);
  }
  return pairs;
}

function histogram(pairs, sf) {
  const h = hdr.build({
    bitBucketSize: 64,
    autoResize: false,
    lowestDiscernibleValue: 1,
    highestTrackableValue: Number.MAX_SAFE_INTEGER,
    numberOfSignificantValueDigits: sf,
    useWebAssembly: false,
  });
  for (const [value, count] of pairs) h.recordValueWithCount(value, count);
  return h;
}

// Java's Max: the highest value equivalent to the largest recorded value.
function useJavaMax(h) {
  if (h.maxValue !== 0) h.maxValue = h.highestEquivalentValue(h.maxValue);
}

// Computes mean and deviation once with the library's getters and serves them from then on.
function memoizeMoments(h) {
  const mean = h.mean;
  const deviation = h.getStdDeviation(mean);
  Object.defineProperty(h, "mean", { value: mean });
  h.getStdDeviation = (m) => (m === mean ? deviation : Object.getPrototypeOf(h).getStdDeviation.call(h, m));
}

function main(argv) {
  const [file, second, rawFile] = argv;
  const pairs = readValues(file);
  if (second === "--all") {
    let out = "";
    let raw = "";
    for (const sf of SIGNIFICANT_DIGITS) {
      const h = histogram(pairs, sf);
      memoizeMoments(h);
      if (rawFile) {
        raw += `#### sf=${sf} ticks=5 ratio=1 csv=0\n`;
        raw += h.outputPercentileDistribution(5, 1, false);
      }
      useJavaMax(h);
      for (const ticks of TICKS) {
        for (const ratio of RATIOS) {
          for (const csv of CSV) {
            out += `#### sf=${sf} ticks=${ticks} ratio=${ratio} csv=${csv ? 1 : 0}\n`;
            out += h.outputPercentileDistribution(ticks, Number(ratio), csv);
          }
        }
      }
    }
    process.stdout.write(out);
    if (rawFile) fs.writeFileSync(rawFile, raw);
    return;
  }
  const [, sf, ticks, ratio, csv] = argv;
  const h = histogram(pairs, Number(sf));
  useJavaMax(h);
  process.stdout.write(h.outputPercentileDistribution(Number(ticks), Number(ratio), csv === "csv"));
}

main(process.argv.slice(2));
