// BenchOptions: how Bench.Run measures, mapped onto picollo_bench_config. A setting left
// null keeps the library's default (picollo_bench_config_default); the library checks every
// value before it runs anything, and a bad one is an ArgumentException.

using System;
using System.Collections.Generic;

namespace Picollo
{
    /// <summary>The settings of <see cref="Bench.Run(Action, BenchOptions)"/>; null keeps the
    /// library's default (2,000 samples within 5 s, an automatic batch, up to 1 s of warm-up,
    /// relative error 0.0001, no pinning, the priority unchanged).</summary>
    public sealed class BenchOptions
    {
        /// <summary>The name the report shows; null: "bench".</summary>
        public string Name { get; set; }

        /// <summary>The counters beside time, as the perf session takes them by name
        /// (<c>"Software:TaskClock"</c>, <c>"Hardware:Instructions"</c>); null: the library's
        /// default set (cycles, instructions, branch and L1D read misses where the PMU allows,
        /// else task-clock, page faults and context switches); empty: time only.</summary>
        public IList<string> Counters { get; set; }

        /// <summary>Operations per sample, 1 to 2^24 (1 times every call); 0 (the default): the
        /// smallest batch whose read-pair cost is at most 1 % of it.</summary>
        public ulong Batch { get; set; }

        /// <summary>The most samples (batches) to record, at least 1.</summary>
        public ulong? Samples { get; set; }

        /// <summary>The most time the samples may take (at least one is taken).</summary>
        public TimeSpan? TimeBudget { get; set; }

        /// <summary>The most time the warm-up may take.</summary>
        public TimeSpan? Warmup { get; set; }

        /// <summary>The histograms' relative error.</summary>
        public double? RelativeError { get; set; }

        /// <summary>The CPU to pin the calling thread to; it stays pinned after the run.</summary>
        public int? PinnedCpu { get; set; }

        /// <summary>The nice value (-20 to 19) to run at; the thread keeps it after the run.</summary>
        public int? Nice { get; set; }

        /// <summary>Measure the cost of calling an empty delegate with the same settings first
        /// and subtract its medians from every figure (true by default); the report names it.</summary>
        public bool SubtractCallOverhead { get; set; }

        public BenchOptions() { SubtractCallOverhead = true; }

        /// <summary>The C config; its name and counters point into the arrays the caller pins.</summary>
        internal BenchConfig ToConfig()
        {
            var c = BenchConfig.Default;
            c.Batch = Batch;
            if (Samples.HasValue) c.Samples = Samples.Value;
            if (TimeBudget.HasValue) c.TimeBudget = TimeBudget.Value.TotalSeconds;
            if (Warmup.HasValue) c.Warmup = Warmup.Value.TotalSeconds;
            if (RelativeError.HasValue) c.RelativeError = RelativeError.Value;
            if (PinnedCpu.HasValue)
            {
                if (PinnedCpu.Value < 0) throw new ArgumentOutOfRangeException("PinnedCpu", PinnedCpu.Value, "a CPU number is at least 0");
                c.PinnedCpu = PinnedCpu.Value;
            }
            if (Nice.HasValue)
            {
                c.Nice = Nice.Value;
                c.SetNice = 1;
            }
            return c;
        }

        /// <summary>The counters as the C config takes them: null, "" or comma-separated names.</summary>
        internal string CounterList()
        {
            if (Counters == null) return null;
            foreach (string name in Counters)
                if (string.IsNullOrEmpty(name) || name.IndexOf(',') >= 0)
                    throw new ArgumentException("a counter name is neither empty nor contains ','", "Counters");
            return string.Join(",", Counters);
        }
    }
}
