// The hdr-histogram-js side of Picollo's interoperability checks (driven by
// interop/py/check_peers.py): reads a JSON array of requests on stdin, answers a JSON array of
// results on stdout, one per request, in order. A request that throws answers
// {"error": message} instead, so the driver can report what the peer refused.
//
// Requests:
//   {op: "decode", b64, bitBucketSize?, wasm?}      -> report of the decoded histogram
//   {op: "encode", digits, lowest?, values: [[v, c], ...], tag?}
//                                                   -> {b64, report (of the histogram encoded)}
//   {op: "log-write", startTimeMs?, baseTimeSec?, intervals: [{tag?, start, end, digits,
//    lowest?, values}]}                             -> {log, reports: [...]}
//   {op: "log-read", log, bitBucketSize?}           -> {intervals: [{tag, startMs, endMs, report}]}
//
// A report: {digits, lowest, highest, total, max, buckets: [[lowest, highest, count], ...],
// percentiles: {"50": value, ...}} where each bucket's bounds are the peer's own
// lowestEquivalentValue / highestEquivalentValue and each percentile is the peer's
// getValueAtPercentile.
"use strict";

const hdr = require("hdr-histogram-js");

const RANKS = [50, 90, 99, 99.9, 100];

function report(h) {
  const out = {
    digits: h.numberOfSignificantValueDigits,
    lowest: h.lowestDiscernibleValue,
    highest: h.highestTrackableValue,
    total: h.totalCount,
    max: h.maxValue,
    percentiles: {},
  };
  if (typeof h.getCountAtIndex === "function") {
    // The pure-JS histograms: walk the counts array with the peer's own bucket arithmetic.
    const buckets = [];
    for (let i = 0; i < h.countsArrayLength; i++) {
      const c = h.getCountAtIndex(i);
      if (c !== 0) {
        const v = h.valueFromIndex(i);
        buckets.push([h.lowestEquivalentValue(v), h.highestEquivalentValue(v), c]);
      }
    }
    out.buckets = buckets;
  }
  if (h.totalCount > 0) {
    for (const p of RANKS) {
      out.percentiles[String(p)] = h.getValueAtPercentile(p);
    }
  }
  return out;
}

function build(digits, lowest) {
  return hdr.build({
    numberOfSignificantValueDigits: digits,
    lowestDiscernibleValue: lowest || 1,
    // The smallest the constructor accepts; the histogram grows as values come.
    highestTrackableValue: 2 * (lowest || 1),
    bitBucketSize: 64,
    autoResize: true,
  });
}

function fill(h, values) {
  for (const [v, c] of values) {
    h.recordValueWithCount(v, c);
  }
  return h;
}

const handlers = {
  decode(req) {
    if (req.wasm) {
      hdr.initWebAssemblySync();
    }
    const h = hdr.decodeFromCompressedBase64(req.b64, req.bitBucketSize || 64, !!req.wasm);
    const r = report(h);
    if (req.wasm) {
      h.destroy();
    }
    return r;
  },
  encode(req) {
    const h = fill(build(req.digits, req.lowest), req.values);
    if (req.tag) {
      h.tag = req.tag;
    }
    return { b64: hdr.encodeIntoCompressedBase64(h), report: report(h) };
  },
  "log-write"(req) {
    let log = "";
    const writer = new hdr.HistogramLogWriter((text) => {
      log += text;
    });
    writer.outputLogFormatVersion();
    if (req.startTimeMs !== undefined) {
      writer.outputStartTime(req.startTimeMs);
    }
    if (req.baseTimeSec !== undefined) {
      // The writer has no BaseTime method: the header goes in as a comment, and the interval
      // times below are passed relative to it, as the format wants.
      writer.outputComment(`[BaseTime: ${req.baseTimeSec.toFixed(3)} (seconds since epoch)]`);
    }
    writer.outputLegend();
    const reports = [];
    for (const it of req.intervals) {
      const h = fill(build(it.digits, it.lowest), it.values);
      if (it.tag) {
        h.tag = it.tag;
      }
      writer.outputIntervalHistogram(h, it.start, it.end, 1000);
      reports.push(report(h));
    }
    return { log, reports };
  },
  "log-read"(req) {
    const reader = new hdr.HistogramLogReader(req.log, req.bitBucketSize || 64);
    const intervals = [];
    for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) {
      intervals.push({
        tag: h.tag === "NO TAG" ? null : h.tag,
        startMs: h.startTimeStampMsec,
        endMs: h.endTimeStampMsec,
        report: report(h),
      });
    }
    return { intervals };
  },
};

function main() {
  const input = require("fs").readFileSync(0, "utf8");
  const requests = JSON.parse(input);
  const results = requests.map((req) => {
    try {
      const handler = handlers[req.op];
      if (!handler) {
        throw new Error(`unknown op ${req.op}`);
      }
      return handler(req);
    } catch (e) {
      return { error: String(e && e.message ? e.message : e) };
    }
  });
  process.stdout.write(JSON.stringify(results));
}

main();
