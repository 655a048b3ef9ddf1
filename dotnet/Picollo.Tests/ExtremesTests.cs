// Tests of HdrHistogram's exact recorded extremes (picollo_histogram_config.exact_extremes,
// picollo_histogram_exact_extremes, ABI 1.7: ExactExtremes, RecordedMin, RecordedMax,
// TryGetRecordedExtremes, HdrHistogramBuilder.WithExactExtremes): every record path in every
// mode, storage and counter width, values outside the range never counted, Reset, merges,
// Subtract and Collect, racing writers, record_fn and the recorder, the Unsupported error and
// the raw call's NULLs. Part of the Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Linq;
using System.Runtime.InteropServices;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>Every mode with each storage it takes (sparse is not offered thread-local).</summary>
    static readonly Tuple<ConcurrencyMode, HistogramStorage>[] ExtremesConfigs =
        (from ConcurrencyMode mode in Enum.GetValues(typeof(ConcurrencyMode))
         from HistogramStorage storage in Enum.GetValues(typeof(HistogramStorage))
         where !(mode == ConcurrencyMode.ThreadLocal && storage == HistogramStorage.Sparse)
         select Tuple.Create(mode, storage)).ToArray();

    static bool Extremes(HdrHistogram h, ulong? min, ulong? max) { return h.RecordedMin == min && h.RecordedMax == max; }

    static string ExtremesText(HdrHistogram h)
    {
        ulong min, max;
        return h.TryGetRecordedExtremes(out min, out max) ? string.Format("({0:N0}, {1:N0})", min, max) : "(none)";
    }

    static void ExtremesEveryPath()
    {
        foreach (int bits in new[] { 32, 64 })
            foreach (var config in ExtremesConfigs)
            {
                string what = string.Format("{0}-bit {1} {2}", bits, config.Item1, config.Item2);
                using (var h = new HdrHistogram(0.01, 1000, 10000000, bits, mode: config.Item1, storage: config.Item2, exactExtremes: true))
                {
                    Check(h.ExactExtremes, what + ": keeps exact extremes");
                    Check(Extremes(h, null, null), what + ": none before a record, got " + ExtremesText(h));
                    ulong min, max;
                    Check(!h.TryGetRecordedExtremes(out min, out max) && min == 0 && max == 0, what + ": TryGetRecordedExtremes of an empty histogram");
                    h.Record(12345);
                    Check(Extremes(h, 12345, 12345), what + ": one record, got " + ExtremesText(h));
                    h.Record(12346, 3);
                    h.Record(99999, 0);   // count 0: nothing recorded, no extreme
                    Check(Extremes(h, 12345, 12346), what + ": Record(value, count), got " + ExtremesText(h));
                    h.RecordCorrected(30000, 10000);   // 30,000, 20,000 and 10,000, the new minimum
                    Check(Extremes(h, 10000, 30000), what + ": RecordCorrected's values, got " + ExtremesText(h));
                    h.RecordMany(new ulong[] { 5000001, 1001, 777777 });
                    Check(Extremes(h, 1001, 5000001), what + ": RecordMany, exactly, got " + ExtremesText(h));
                    Check(h.LowestEquivalentValue(1001) < 1001 || h.HighestEquivalentValue(1001) > 1001,
                          what + ": exact, not a bucket's bound (the bucket of 1,001 holds more values)");
                    Check(h.TryGetRecordedExtremes(out min, out max) && min == 1001 && max == 5000001, what + ": TryGetRecordedExtremes");
                    h.RecordMany(new ulong[] { 0, 5, 10000000000, ulong.MaxValue });
                    h.Record(3, 10);
                    h.Record(1000000000, 10);
                    Check(h.UnderflowCount == 12 && h.OverflowCount == 12 && Extremes(h, 1001, 5000001),
                          what + ": values outside the range are no extremes, got " + ExtremesText(h));
                    h.Reset();
                    Check(Extremes(h, null, null) && h.ExactExtremes, what + ": Reset clears them, got " + ExtremesText(h));
                    h.Record(0);
                    h.Record(ulong.MaxValue);
                    Check(Extremes(h, null, null), what + ": only underflow and overflow: still none, got " + ExtremesText(h));
                    h.Record(4242);
                    Check(Extremes(h, 4242, 4242), what + ": not widened by what Reset cleared, got " + ExtremesText(h));
                }
            }
        using (var h = new HdrHistogram(0.01, exactExtremes: true))
        {
            h.RecordMany(new ulong[] { ulong.MaxValue, 0 });
            Check(Extremes(h, 0, ulong.MaxValue), "the whole u64 range, got " + ExtremesText(h));
        }
        using (var h = new HdrHistogram(0.01, counterBits: 32, exactExtremes: true))
        {
            h.Record(77, 5000000000ul);
            Check(h.SaturatedCount > 0 && Extremes(h, 77, 77), "a saturated record counts, got " + ExtremesText(h));
        }
        using (var h = new HdrHistogram(0.01, mode: ConcurrencyMode.Approximate, approxThreshold: 4, exactExtremes: true))
        {
            h.Record(31337, 1000000);
            for (int i = 0; i < 100; i++) h.Record(31338);
            Check(Extremes(h, 31337, 31338), "approximate counts do not blur the extremes, got " + ExtremesText(h));
        }
    }

    static void ExtremesMerges()
    {
        foreach (var config in ExtremesConfigs)
        {
            string what = string.Format("{0} {1}", config.Item1, config.Item2);
            using (var h = new HdrHistogram(0.01, 1000, 10000000, mode: config.Item1, storage: config.Item2, exactExtremes: true))
            using (var exact = HdrHistogram.Factory.WithRelativeError(0.01).WithRange(1000, 10000000).WithExactExtremes().Create())
            using (var plain = new HdrHistogram(0.01, 1000, 10000000))
            using (var empty = new HdrHistogram(0.01, 1000, 10000000, exactExtremes: true))
            {
                h.Record(500000);
                exact.RecordMany(new ulong[] { 1234, 600001 });
                h.Add(exact);
                Check(Extremes(h, 1234, 600001), what + ": Add brings the source's exact extremes, got " + ExtremesText(h));
                plain.RecordMany(new ulong[] { 1100, 7654321 });
                h.Add(plain);
                ulong lo = h.LowestEquivalentValue(1100), hi = h.HighestEquivalentValue(7654321);
                Check(Extremes(h, lo, hi), string.Format("{0}: Add of a source without them brings its buckets' bounds ({1:N0}, {2:N0}), got {3}",
                                                         what, lo, hi, ExtremesText(h)));
                h.Add(empty);
                Check(Extremes(h, lo, hi), what + ": Add of an empty source changes nothing, got " + ExtremesText(h));
            }
        }
        using (var h = new HdrHistogram(0.01, exactExtremes: true))
        using (var src = new HdrHistogram(0.01, exactExtremes: true))
        {
            src.RecordMany(new ulong[] { 3333, 44444 });
            h.Add(src);
            Check(Extremes(h, 3333, 44444), "Add into an empty histogram, got " + ExtremesText(h));
            h.Subtract(src);
            Check(h.TotalCount == 0 && Extremes(h, 3333, 44444), "Subtract leaves them, got " + ExtremesText(h));
        }
        using (var h = new HdrHistogram(0.01, exactExtremes: true))
        using (var fine = new HdrHistogram(0.001, exactExtremes: true))
        using (var plain = new HdrHistogram(0.001))
        {
            fine.RecordMany(new ulong[] { 10007, 987654 });
            h.AddRebinned(fine);
            Check(Extremes(h, 10007, 987654), "AddRebinned brings exact extremes whatever the precision, got " + ExtremesText(h));
            plain.Record(5000011);
            h.AddRebinned(plain);
            Check(Extremes(h, 10007, h.HighestEquivalentValue(5000011)), "AddRebinned of a source without them: its bucket's bound here, got " + ExtremesText(h));
        }
        using (var h = new HdrHistogram(0.01, exactExtremes: true))
        using (var src = new HdrHistogram(0.01))
        {
            src.RecordMany(new ulong[] { 2000, 3000000 });
            h.AddEncoded(HistogramEncoding.Encode(src));
            ulong min, max;
            Check(h.TryGetRecordedExtremes(out min, out max) && Math.Abs((double)min - 2000) <= 40 && Math.Abs((double)max - 3000000) <= 60000,
                  "AddEncoded: V2 holds no extremes, its buckets' midpoints within the error, got " + ExtremesText(h));
        }
        using (var h = new HdrHistogram(0.01, mode: ConcurrencyMode.Interlocked, exactExtremes: true))
        {
            h.RecordMany(new ulong[] { 100, 200 });
            using (var interval = h.Collect())
            {
                Check(interval.TotalCount == 2 && !interval.ExactExtremes, "Collect's interval keeps no extremes");
                Throws(Status.Unsupported, () => { var unused = interval.RecordedMin; }, "RecordedMin of Collect's interval");
            }
            Check(h.TotalCount == 0 && Extremes(h, 100, 200), "Collect leaves them, got " + ExtremesText(h));
            using (var d = h.Downsample(0.05)) Check(!d.ExactExtremes, "Downsample's histogram keeps none");
        }
    }

    static void ExtremesThreads()
    {
        const int perThread = 100000;
        foreach (var mode in ConcurrentModes)
            using (var h = new HdrHistogram(0.01, 10, 1000000, mode: mode, exactExtremes: true))
            {
                OnThreads(Writers, t => WriteInto(h, t, perThread));
                ulong lo = ulong.MaxValue, hi = 0, first = h.LowestEquivalentValue(10), last = h.HighestEquivalentValue(1000000);
                for (int t = 0; t < Writers; t++)
                    foreach (var v in WriterValues(t, perThread).Concat(new[] { (ulong)(t * 1000 + 10) }).Where(v => v >= first && v <= last))
                    {
                        lo = Math.Min(lo, v);
                        hi = Math.Max(hi, v);
                    }
                Check(Extremes(h, lo, hi), string.Format("{0}: racing writers give the true extremes ({1:N0}, {2:N0}), got {3}", mode, lo, hi, ExtremesText(h)));
            }
    }

    static void ExtremesFastPaths()
    {
        var values = QueryValues(121, 5000).Concat(new ulong[] { 0, 5, 2000000, ulong.MaxValue }).ToArray();
        ulong lo = values.Where(v => v >= 10 && v <= 1000000).Min(), hi = values.Where(v => v >= 10 && v <= 1000000).Max();
        foreach (ConcurrencyMode mode in Enum.GetValues(typeof(ConcurrencyMode)))
        {
            using (var viaFn = new HdrHistogram(0.01, 10, 1000000, mode: mode, exactExtremes: true))
            using (var viaRecorder = new HdrHistogram(0.01, 10, 1000000, mode: mode, exactExtremes: true))
            {
                var record = (Native.RecordFn)Marshal.GetDelegateForFunctionPointer(Native.picollo_histogram_record_fn(viaFn.Handle), typeof(Native.RecordFn));
                IntPtr raw = viaFn.Handle.DangerousGetHandle();
                foreach (var v in values) record(raw, v);
                Check(Extremes(viaFn, lo, hi), mode + ": record_fn keeps the extremes, got " + ExtremesText(viaFn));
                RecorderData r;
                Equal(Status.Ok, Native.picollo_histogram_get_recorder(viaRecorder.Handle, Native.RecorderVersion, out r), mode + ": recorder");
                Check(r.Kind == (uint)RecorderKind.Call && r.Cells == IntPtr.Zero, mode + ": with exact extremes the recorder calls for every record (kind " + r.Kind + ")");
                var call = (Native.RecordFn)Marshal.GetDelegateForFunctionPointer(r.Record, typeof(Native.RecordFn));
                foreach (var v in values) RecordInline(ref r, call, v);
                Check(Extremes(viaRecorder, lo, hi), mode + ": records through the recorder keep the extremes, got " + ExtremesText(viaRecorder));
            }
        }
    }

    static void ExtremesUnsupportedAndRaw()
    {
        using (var h = new HdrHistogram(0.01))
        {
            h.Record(5);
            Check(!h.ExactExtremes, "a histogram made without them keeps none");
            Throws(Status.Unsupported, () => { var unused = h.RecordedMin; }, "RecordedMin without exact extremes");
            Throws(Status.Unsupported, () => { var unused = h.RecordedMax; }, "RecordedMax without exact extremes");
            try
            {
                ulong min, max;
                h.TryGetRecordedExtremes(out min, out max);
                Check(false, "TryGetRecordedExtremes without exact extremes: no exception");
            }
            catch (PicolloNotSupportedException e)
            {
                Check(e.Status == Status.Unsupported && e.Message.Contains("WithExactExtremes") && e.Message.Contains("exactExtremes: true"),
                      "the Unsupported message says how to make one that keeps them: " + e.Message);
            }
        }
        Check(!HdrHistogram.Factory.Create().ExactExtremes, "the builder's default keeps none");
        Equal(1u, HdrHistogram.Factory.WithExactExtremes().Config.ExactExtremes, "the builder's exact_extremes");
        var bad = HistogramConfig.Default;
        bad.ExactExtremes = 2;
        Throws(Status.InvalidArgument, () => new HdrHistogram(bad), "exact_extremes = 2");
        bad = HistogramConfig.Default;
        bad.Reserved = 1;
        Throws(Status.InvalidArgument, () => new HdrHistogram(bad), "a non-zero reserved");

        Equal(Status.NullPointer, Native.picollo_histogram_exact_extremes_raw(IntPtr.Zero, IntPtr.Zero, IntPtr.Zero), "exact_extremes of a NULL handle");
        using (var h = new HdrHistogram(0.01, exactExtremes: true))
        {
            IntPtr raw = h.Handle.DangerousGetHandle();
            IntPtr cells = Marshal.AllocHGlobal(16);
            try
            {
                Marshal.WriteInt64(cells, 0, -1);
                Marshal.WriteInt64(cells, 8, -1);
                Equal(Status.Empty, Native.picollo_histogram_exact_extremes_raw(raw, cells, cells + 8), "raw: empty");
                Check(Marshal.ReadInt64(cells, 0) == -1 && Marshal.ReadInt64(cells, 8) == -1, "raw: nothing written when empty");
                h.RecordMany(new ulong[] { 70, 90 });
                Equal(Status.Ok, Native.picollo_histogram_exact_extremes_raw(raw, IntPtr.Zero, cells + 8), "raw: a NULL min");
                Check(Marshal.ReadInt64(cells, 0) == -1 && Marshal.ReadInt64(cells, 8) == 90, "raw: max only");
                Equal(Status.Ok, Native.picollo_histogram_exact_extremes_raw(raw, cells, IntPtr.Zero), "raw: a NULL max");
                Equal(70L, Marshal.ReadInt64(cells, 0), "raw: min only");
                Equal(Status.Ok, Native.picollo_histogram_exact_extremes_raw(raw, IntPtr.Zero, IntPtr.Zero), "raw: both NULL");
            }
            finally { Marshal.FreeHGlobal(cells); }
        }
        var disposed = new HdrHistogram(0.01, exactExtremes: true);
        disposed.Dispose();
        Throws<ObjectDisposedException>(() => { var unused = disposed.RecordedMin; }, "RecordedMin of a disposed histogram");
    }

    static void ExtremesGroups()
    {
        Group("extremes: every record path", ExtremesEveryPath);
        Group("extremes: merges, subtract, collect", ExtremesMerges);
        Group("extremes: racing writers", ExtremesThreads);
        Group("extremes: record_fn and recorder", ExtremesFastPaths);
        Group("extremes: unsupported, bad input, raw calls", ExtremesUnsupportedAndRaw);
    }
}
