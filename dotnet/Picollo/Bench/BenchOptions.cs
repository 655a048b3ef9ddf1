// BenchOptions: how Bench.Run measures, mapped onto picollo_bench_config. A setting left
// null keeps the library's default (picollo_bench_config_default); the library checks every
// value before it runs anything, and a bad one is an ArgumentException.

using System;
using System.Collections.Generic;

namespace Picollo
{
    /// <summary>The settings of <see cref="Bench.Run(Action, BenchOptions)"/> and of an
    /// interleaved <see cref="Bench.Compare(Action, Action, BenchOptions, string, string)"/>;
    /// null keeps the library's default (samples for 5 s, at most 1,000,000, an automatic batch, up to
    /// 1 s of warm-up, relative error 0.0001, no pinning, the priority unchanged, the default
    /// rounds, a threshold of 1 %, random offsets in an interleaved comparison).</summary>
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
        /// smallest batch whose read-pair cost is at most 1 % of it and that spans a thousand
        /// steps of the clock.</summary>
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

        /// <summary>Rounds, 1 to 1,000,000: a run's samples are cut into this many (default
        /// 10); <see cref="Bench.Compare(Action, Action, BenchOptions, string, string)"/> runs
        /// both sides in each (default one per 0.1 s of the time budget, 10 to 100).</summary>
        public ulong? Rounds { get; set; }

        /// <summary>The change in percent below which a comparison calls a difference
        /// within noise (default 1; 0: never).</summary>
        public double? Threshold { get; set; }

        /// <summary>The seed of each interleaved round's order (default: from the clock); not 0.</summary>
        public ulong? Seed { get; set; }

        /// <summary>Each turn of an interleaved
        /// <see cref="Bench.Compare(Action, Action, BenchOptions, string, string)"/> runs at a
        /// random stack depth with a random heap block held (true, the default), so that no one
        /// placement of stack frames and allocations (cache sets, alignment, 4K aliasing)
        /// favours a side by chance; false keeps one placement for the whole comparison.
        /// <see cref="Bench.Run(Action, BenchOptions)"/> does not use it.</summary>
        public bool RandomOffsets { get; set; }

        /// <summary>The read path the counters are forced onto: <see cref="Picollo.Perf.ReadPath.Syscall"/>
        /// or <see cref="Picollo.Perf.ReadPath.Rdpmc"/> (user space wherever the page allows);
        /// <see cref="Picollo.Perf.ReadPath.None"/> (the default) takes the cheaper, both timed when the
        /// counters open. The report's PMU line says which was taken and why (ABI 1.19).</summary>
        public Picollo.Perf.ReadPath ForceReadPath { get; set; }

        public BenchOptions()
        {
            SubtractCallOverhead = true;
            RandomOffsets = true;
        }

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
            c.FixedOffsets = RandomOffsets ? 0u : 1u;
            c.ForceReadPath = (uint)ForceReadPath;
            return WithRounds(c);
        }

        /// <summary>The rounds, threshold and seed in the C config (which takes a threshold of
        /// 0 as its default and a negative one as none).</summary>
        BenchConfig WithRounds(BenchConfig c)
        {
            if (Rounds.HasValue)
            {
                if (Rounds.Value == 0) throw new ArgumentOutOfRangeException("Rounds", Rounds.Value, "rounds are 1 to 1,000,000");
                c.Rounds = Rounds.Value;
            }
            if (Threshold.HasValue)
            {
                double t = Threshold.Value;
                if (double.IsNaN(t) || double.IsInfinity(t) || t < 0)
                    throw new ArgumentOutOfRangeException("Threshold", t, "the threshold is a finite percentage, 0 or more");
                c.Threshold = t == 0 ? -1.0 : t;
            }
            if (Seed.HasValue)
            {
                if (Seed.Value == 0) throw new ArgumentOutOfRangeException("Seed", Seed.Value, "a seed is not 0");
                c.Seed = Seed.Value;
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
