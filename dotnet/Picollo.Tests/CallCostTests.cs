// What the binding adds to a query and a merge: HdrHistogram.GetPercentile and Add beside the
// same C functions called bare (the extern declarations, a raw pointer for the merge),
// taking turns, best of several batches. Prints
// "bench csharp: percentile=<us> bare_percentile=<us> merge=<us> bare_merge=<us>"; checks
// only that both ways give the same answers (speed is for the figures, not for asserts).
using System;
using System.Diagnostics;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    static void CallCostGroups()
    {
        Group("call cost", CallCost);
    }

    /// <summary>Microseconds per call of <paramref name="call"/>, one batch of <paramref name="calls"/>.</summary>
    static double MicrosPerCall(int calls, Action call)
    {
        var watch = Stopwatch.StartNew();
        for (int i = 0; i < calls; i++) call();
        return watch.Elapsed.TotalMilliseconds * 1000.0 / calls;
    }

    static void CallCost()
    {
        using (var h = new HdrHistogram(0.001, 0, 7716549600, counterBits: 32))
        using (var wrapped = new HdrHistogram(0.001, 0, 7716549600, counterBits: 32))
        using (var bare = new HdrHistogram(0.001, 0, 7716549600, counterBits: 32))
        {
            var rng = new Random(47);
            for (int i = 0; i < 200000; i++)
            {
                double r = rng.NextDouble();
                h.Record((ulong)(r * r * r * 7716549600.0));
            }
            var viaBinding = h.GetPercentile(99.9);
            Percentile viaExtern;
            Check(Native.picollo_histogram_percentile(h.Handle, 99.9, out viaExtern) == Status.Ok, "bare percentile");
            Check(viaBinding.Value == viaExtern.Value && viaBinding.CumulativeCount == viaExtern.CumulativeCount,
                  "the binding's percentile is the C function's");
            var calls = new Action[]
            {
                () => h.GetPercentile(99.9),
                () => { Percentile p; Native.picollo_histogram_percentile(h.Handle, 99.9, out p); },
                () => wrapped.Add(h),
                () => BareAdd(bare, h),
            };
            int[] batch = { 200, 200, 20, 20 };
            var best = new double[calls.Length];
            for (int k = 0; k < best.Length; k++) best[k] = double.MaxValue;
            for (int round = 0; round < 7; round++)
                for (int k = 0; k < calls.Length; k++)
                    best[k] = Math.Min(best[k], MicrosPerCall(batch[k], calls[k]));
            Check(wrapped.GetPercentile(50).CumulativeCount == bare.GetPercentile(50).CumulativeCount,
                  "both merges added the same");
            Console.WriteLine(string.Format(System.Globalization.CultureInfo.InvariantCulture,
                "bench csharp: percentile={0:F2} bare_percentile={1:F2} merge={2:F2} bare_merge={3:F2}",
                best[0], best[1], best[2], best[3]));
        }
    }

    /// <summary>picollo_histogram_add on the raw pointers, the handles kept alive by the caller.</summary>
    static void BareAdd(HdrHistogram dst, HdrHistogram src)
    {
        Native.picollo_histogram_add(dst.Handle.DangerousGetHandle(), src.Handle.DangerousGetHandle());
    }
}
