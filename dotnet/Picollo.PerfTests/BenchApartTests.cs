// Tests of runs apart and random offsets (ABI 1.15): BenchResult.MedianRound; Bench.JudgeApart
// with fewer than 2 runs apart (not enough runs apart), with bad runs apart (an
// ArgumentException naming them), of runs of the same work against the 5 runs before each (A/A:
// not faster or slower in every one of 12) and of twice the work against them (slower in one of
// 12 at least); interleaved A/A comparisons with BenchOptions.RandomOffsets on and off. Each
// count is bounded so that correct code fails with a probability of at most 1e-4 (binomial, at
// a worst rate per trial of 0.10 interleaved and 0.40 apart, docs/testing.md); the rates
// themselves are tested on simulated meters in bench/tests.

using System;
using System.Collections.Generic;
using System.Linq;
using Picollo;

static partial class PerfTests
{
    /// <summary>Short runs apart: 0.05 s of warm-up, at most 0.25 s, time only, no call
    /// overhead subtracted (the verdicts are of ratios, and the empty delegate's run would
    /// double the time).</summary>
    static BenchOptions Apart(string name)
    {
        return new BenchOptions
        {
            Name = name, Counters = new string[0], Samples = 500, SubtractCallOverhead = false,
            TimeBudget = TimeSpan.FromSeconds(0.25), Warmup = TimeSpan.FromSeconds(0.05),
        };
    }

    static string VerdictLine(BenchComparison c) { return c.Text.TrimEnd('\n').Split('\n').Last(); }

    static void BenchMedianRound()
    {
        using (BenchResult r = Bench.Run(() => Spin(8), Apart("median")))
        {
            double m = r.MedianRound, p50 = r.Percentile("time", 50);
            Console.WriteLine(string.Format("bench median round: {0:F1} ns (P50 {1:F1} ns)", m, p50));
            Check(m > 0 && !double.IsInfinity(m) && m >= p50 / 1.5 && m <= p50 * 1.5,
                  string.Format("the median round {0} ns is positive and near the P50 {1} ns", m, p50));
            Check(r.MedianRound == m, "the median round does not change");
            r.Dispose();
            try { double after = r.MedianRound; Check(false, "the median round of a disposed result: " + after); }
            catch (ObjectDisposedException) { passed++; }
        }
    }

    static void BenchJudgeApartTooFew()
    {
        using (BenchResult r = Bench.Run(() => Spin(8), Apart("few")))
        {
            double m = r.MedianRound;
            foreach (double[] runs in new[] { new double[0], new[] { m } })
            {
                BenchComparison c = Bench.JudgeApart(r, runs);
                string line = VerdictLine(c);
                Console.WriteLine(string.Format("bench judge apart on {0} run(s): {1}; {2}", runs.Length, c.Verdict, line));
                Check(c.Verdict == BenchVerdict.NotEnoughRunsApart && c.RoundsA == (ulong)runs.Length,
                      string.Format("{0} run(s) apart are not enough: {1}, rounds_a {2}", runs.Length, c.Verdict, c.RoundsA));
                Check(line.StartsWith("verdict: not enough runs apart to judge few against the baseline: the baseline holds "
                                      + runs.Length + " and "), "the verdict line: " + line);
                Check(c.Text.StartsWith("Method: runs apart as the unit: "), "the method first: " + c.Text);
                Check(c.A == null && ReferenceEquals(c.B, r), "A is none, B the result judged");
                c.Dispose();
                Check(!r.IsDisposed, "disposing the judgement leaves the result");
            }
        }
    }

    static void BenchJudgeApartBadRuns()
    {
        using (BenchResult r = Bench.Run(() => Spin(1), Apart("bad")))
        {
            var bad = new[] { double.NaN, 0.0, -5.0, double.PositiveInfinity, double.NegativeInfinity };
            foreach (double x in bad)
            {
                double[] runs = { 100.0, x, 101.0 };
                Throws(Status.InvalidArgument, "runs_apart", () => Bench.JudgeApart(r, runs),
                       "a run apart of " + x);
            }
            // One bad run alone is refused too, though one run is not enough for a verdict.
            Throws(Status.InvalidArgument, "runs_apart", () => Bench.JudgeApart(r, new[] { -1.0 }), "a lone bad run");
            try { Bench.JudgeApart(r, null); Check(false, "null runs apart"); }
            catch (ArgumentNullException e) { Check(e.ParamName == "runsApart", "null runs apart: " + e.ParamName); }
            try { Bench.JudgeApart(null, new[] { 1.0, 2.0 }); Check(false, "a null result"); }
            catch (ArgumentNullException e) { Check(e.ParamName == "result", "a null result: " + e.ParamName); }
            r.Dispose();
            try { Bench.JudgeApart(r, new[] { 1.0, 2.0 }); Check(false, "a disposed result"); }
            catch (ObjectDisposedException) { passed++; }
        }
    }

    static void BenchJudgeApartGate()
    {
        // The CI gate in one process: each new run of spin8 is judged against the median rounds
        // of the 5 spin8 runs before it (it then joins them), and a run of spin16 against the
        // same 5. Under no change a 99 % prediction interval misses about 1 in 100, but a window
        // that caught the machine at one speed level (a VM that steps 1.8x between them, for
        // seconds) calls a run at the other different, and one that caught both is wider than
        // a 2x change.
        const int Window = 5, Trials = 12;
        var saved = new List<double>();
        for (int i = 0; i < Window; i++)
            using (BenchResult r = Bench.Run(() => Spin(8), Apart("spin8")))
                saved.Add(r.MedianRound);
        Console.WriteLine("bench runs apart: " + string.Join(", ", saved.Select(m => m.ToString("F1"))) + " ns");
        int same = 0, slower = 0;
        var verdicts = new List<string>();
        for (int t = 0; t < Trials; t++)
        {
            double[] window = saved.Skip(saved.Count - Window).ToArray();
            using (BenchResult a = Bench.Run(() => Spin(8), Apart("spin8")))
            {
                BenchComparison c = Bench.JudgeApart(a, window);
                verdicts.Add(c.Verdict.ToString());
                if (c.Verdict != BenchVerdict.Faster && c.Verdict != BenchVerdict.Slower) same++;
                Check(c.RoundsA == Window && c.ChangeLow <= c.Change && c.Change <= c.ChangeHigh,
                      string.Format("5 runs apart; the change {0} in [{1}, {2}]", c.Change, c.ChangeLow, c.ChangeHigh));
                if (t == 0) Console.WriteLine("bench judge apart A/A: " + VerdictLine(c));
                saved.Add(a.MedianRound);
            }
            using (BenchResult b = Bench.Run(() => Spin(16), Apart("spin16")))
            {
                BenchComparison c = Bench.JudgeApart(b, window);
                string line = VerdictLine(c);
                // Apart, a 1.8x step reads 2x the work as 1.1 to 3.6: above 1, below 2 * 1.8 * 1.5.
                if (c.Verdict == BenchVerdict.Slower && c.ChangeLow > 0 && c.Ratio > 1.0 && c.Ratio < 5.4
                    && line.StartsWith("verdict: spin16 is slower than the baseline by ")) slower++;
                else Console.WriteLine("bench judge apart 2x: " + c.Verdict + ", " + line);
                if (t == 0) Console.WriteLine("bench judge apart 2x: " + line);
            }
        }
        Console.WriteLine(string.Format(
            "bench judge apart: {0} of {1} runs of the same work judged against the 5 before neither faster nor slower ({2}); twice the work slower {3} of {1}",
            same, Trials, string.Join(",", verdicts), slower));
        // at most 11 of 12 (apart, p_max 0.40): correct code fails with P = 1.7e-5 (docs/testing.md)
        Check(same >= 1, string.Format("A/A on runs apart: {0} of {1} neither faster nor slower", same, Trials));
        // at most 11 of 12 (apart, p_max 0.40): correct code fails with P = 1.7e-5 (docs/testing.md)
        Check(slower >= 1, string.Format("twice the work on runs apart: slower {0} of {1}", slower, Trials));
    }

    static void BenchRandomOffsets()
    {
        Check(new BenchOptions().RandomOffsets && new BenchOptions().ToConfig().FixedOffsets == 0,
              "random offsets by default (fixed_offsets 0)");
        Check(new BenchOptions { RandomOffsets = false }.ToConfig().FixedOffsets == 1,
              "RandomOffsets false is fixed_offsets 1");
        // A/A interleaved with the offsets on and off: a 99 % interval rarely excludes 0.
        const int N = 6;
        Action op = () => Spin(8);
        foreach (bool random in new[] { true, false })
        {
            int none = 0, called = 0;
            for (int i = 0; i < N; i++)
            {
                BenchOptions o = Paired();
                o.RandomOffsets = random;
                using (BenchComparison c = Bench.Compare(op, op, o))
                {
                    Check(c.Paired && c.RoundsA == 10, "ten paired rounds");
                    if (c.Verdict == BenchVerdict.NoDifference) none++;
                    if (c.Verdict == BenchVerdict.Faster || c.Verdict == BenchVerdict.Slower) called++;
                }
            }
            Console.WriteLine(string.Format("bench A/A with random offsets {0}: {1} of {2} no difference, {3} faster or slower",
                                            random ? "on" : "off", none, N, called));
            // at most 4 of 6 (IL, p_max 0.10): correct code fails with P = 5.5e-5 (docs/testing.md)
            Check(N - none <= 4, string.Format("A/A with random offsets {0}: no difference in {1} of {2}", random ? "on" : "off", none, N));
        }
        // one of up to 5 (IL, p_max 0.10): correct code fails with P = 1.0e-5 (docs/testing.md)
        using (BenchComparison c = TwiceTheLoopInterleaved(WithFixedOffsets(Paired()), "spin8", "spin16"))
            Check(c.Verdict == BenchVerdict.Slower, "twice the loop is slower with fixed offsets: " + c.Verdict);
    }

    static BenchOptions WithFixedOffsets(BenchOptions o)
    {
        o.RandomOffsets = false;
        return o;
    }

    static void BenchApartGroups()
    {
        Group("bench median round", BenchMedianRound);
        Group("bench judge apart: too few runs", BenchJudgeApartTooFew);
        Group("bench judge apart: bad runs", BenchJudgeApartBadRuns);
        Group("bench judge apart: the gate", BenchJudgeApartGate);
        Group("bench random offsets", BenchRandomOffsets);
    }
}
