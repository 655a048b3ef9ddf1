// Tests of the concurrency modes through the C# binding: several Threads record into one
// histogram per mode (exact modes against a single-thread reference, bucket for bucket; the
// approximate mode exact below 2^T and within 5 % above), snapshots with deltas while
// threads write, the approximate counter from threads, the mode builder and its errors.
// Part of the Tests program (Tests.cs holds Main and the check helpers).

using System;
using System.Linq;
using System.Threading;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    const int Writers = 4;

    static readonly ConcurrencyMode[] ConcurrentModes =
        { ConcurrencyMode.Interlocked, ConcurrencyMode.ThreadLocal, ConcurrencyMode.Approximate };

    /// <summary>Run body(i) on n threads at once, join them all, rethrow the first failure.</summary>
    static void OnThreads(int n, Action<int> body)
    {
        var errors = new Exception[n];
        var threads = Enumerable.Range(0, n).Select(i => new Thread(() =>
        {
            try { body(i); }
            catch (Exception e) { errors[i] = e; }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        foreach (var e in errors) if (e != null) throw e;
    }

    /// <summary>Writer i's values: 0..1,099,999 (the range is 10..10^6), seeded by i.</summary>
    static ulong[] WriterValues(int i, int n)
    {
        var rng = new Random(300 + i);
        var v = new ulong[n];
        for (int k = 0; k < n; k++) v[k] = (ulong)rng.Next(0, 1100000);
        return v;
    }

    /// <summary>Writer i's work: the values in chunks through RecordMany, some one by one, and
    /// one Record(value, count).</summary>
    static void WriteInto(HdrHistogram h, int i, int n)
    {
        var values = WriterValues(i, n);
        int bulk = n - 1000, chunk = bulk / 8;
        for (int off = 0; off < bulk; off += chunk) h.RecordMany(values, off, Math.Min(chunk, bulk - off));
        for (int k = bulk; k < n; k++) h.Record(values[k]);
        h.Record((ulong)(i * 1000 + 10), 7);
    }

    static HdrHistogram Reference(int writers, int n)
    {
        var r = new HdrHistogram(0.01, 10, 1000000);
        for (int i = 0; i < writers; i++) WriteInto(r, i, n);
        return r;
    }

    static void SameCounts(HdrHistogram a, HdrHistogram b, string what)
    {
        Check(a.BucketsWithValues.SequenceEqual(b.BucketsWithValues), what + ": the same buckets as the reference");
        Equal(b.TotalCount, a.TotalCount, what + ": total");
        Equal(b.UnderflowCount, a.UnderflowCount, what + ": underflow");
        Equal(b.OverflowCount, a.OverflowCount, what + ": overflow");
    }

    static void ModesRecordFromThreads()
    {
        const int n = 200000;
        using (var reference = Reference(Writers, n))
        {
            foreach (var mode in new[] { ConcurrencyMode.Interlocked, ConcurrencyMode.ThreadLocal })
            {
                using (var h = HdrHistogram.Factory.WithRelativeError(0.01).WithRange(10, 1000000).WithMode(mode).Create())
                {
                    Equal(mode, h.Mode, "mode");
                    OnThreads(Writers, i => WriteInto(h, i, n));
                    Equal((ulong)Writers * (n + 7), h.TotalCount + h.UnderflowCount + h.OverflowCount, mode + ": every record");
                    SameCounts(h, reference, mode + " from " + Writers + " threads");
                }
            }
        }
        // Single writer: one recording thread while others query.
        using (var reference = Reference(1, n))
        using (var h = new HdrHistogram(0.01, 10, 1000000))
        {
            long reads = 0, bad = 0;
            var stop = new ManualResetEvent(false);
            var reader = new Thread(() =>
            {
                do
                {
                    var s = h.GetSummary();
                    if (s.TotalCount > 0 && s.P100.CumulativeCount != s.TotalCount) bad++;
                    if (s.TotalCount + s.UnderflowCount + s.OverflowCount > (ulong)n + 7) bad++;
                    reads++;
                } while (!stop.WaitOne(0));
            });
            reader.Start();
            try { OnThreads(1, i => WriteInto(h, i, n)); }
            finally { stop.Set(); reader.Join(); }
            Check(bad == 0 && reads > 0, string.Format("single writer: {0} bad reads of {1}", bad, reads));
            SameCounts(h, reference, "single writer on its own thread");
        }
        // Approximate: exact while every bucket stays below 2^13 (about 1,500 at most here).
        using (var reference = Reference(Writers, n / 4))
        using (var h = new HdrHistogram(0.01, 10, 1000000, mode: ConcurrencyMode.Approximate))
        {
            Equal(13u, h.ApproxThreshold, "the default threshold");
            OnThreads(Writers, i => WriteInto(h, i, n / 4));
            Check(h.BucketsWithValues.Max(b => b.Count) < 8192, "approximate: every bucket below 2^13");
            SameCounts(h, reference, "approximate below its threshold");
        }
        // Approximate, one hot bucket: 10^6 records within 5 % (2 % at two standard deviations).
        foreach (uint t in new uint[] { 0, 16 })
        {
            using (var h = HdrHistogram.Factory.WithRelativeError(0.01).WithRange(1, 1000000).WithApproximate(t).Create())
            {
                const int per = 250000;
                OnThreads(Writers, i =>
                {
                    var hot = Enumerable.Repeat(5000UL, per).ToArray();
                    for (int off = 0; off < per; off += per / 10) h.RecordMany(hot, off, per / 10);
                    for (int k = 0; k < 1000; k++) h.Record(700000);
                });
                var buckets = h.BucketsWithValues.ToList();
                Equal(2, buckets.Count, "approximate: two buckets");
                double expected = (double)Writers * per, got = buckets[0].Count;
                Check(Math.Abs(got - expected) <= 0.05 * expected,
                      string.Format("approximate T={0}: hot bucket {1} for {2}", h.ApproxThreshold, got, expected));
                Equal((ulong)Writers * 1000, buckets[1].Count, "approximate: the cold bucket is exact");
                Console.WriteLine("approximate T={0}: hot bucket {1:N0} for {2:N0} records ({3:+0.000;-0.000} %)",
                                  h.ApproxThreshold, got, expected, (got - expected) / expected * 100);
            }
        }
    }

    static void SnapshotsWhileWriting()
    {
        const int n = 200000;
        foreach (var mode in ConcurrentModes)
        {
            int perWriter = mode == ConcurrencyMode.Approximate ? n / 4 : n;  // below 2^13 per bucket
            using (var h = new HdrHistogram(0.01, 10, 1000000, mode: mode))
            using (var snap = h.GetSnapshot())
            {
                long started = 0, updates = 0;
                ulong sum = 0, bad = 0;
                int writersDone = 0;
                var writers = Enumerable.Range(0, Writers).Select(i => new Thread(() =>
                {
                    var values = WriterValues(i, perWriter);
                    for (int off = 0; off < perWriter; off += 1000)
                    {
                        int count = Math.Min(1000, perWriter - off);
                        Interlocked.Add(ref started, count);   // published before the records
                        h.RecordMany(values, off, count);
                        if (off % 50000 == 0) Thread.Sleep(1);  // let the monitor in
                    }
                    Interlocked.Increment(ref writersDone);
                })).ToList();
                writers.ForEach(t => t.Start());
                var summary = new HdrHistogramSummary();
                bool last = false;
                while (!last)
                {
                    last = Volatile.Read(ref writersDone) == Writers;
                    snap.Update(deltas: true);
                    snap.GetSummary(summary);        // refilled in place
                    sum += summary.TotalCount + summary.UnderflowCount + summary.OverflowCount;
                    if (sum > (ulong)Interlocked.Read(ref started)) bad++;
                    if (summary.TotalCount > 0 && summary.P100.CumulativeCount != summary.TotalCount) bad++;
                    updates++;
                    if (!last) Thread.Sleep(1);
                }
                writers.ForEach(t => t.Join());
                Equal(0UL, bad, mode + ": deltas within what was recorded, summaries consistent");
                Equal((ulong)Writers * (ulong)perWriter, sum, mode + ": the deltas add up to every record");
                Equal(sum, h.TotalCount + h.UnderflowCount + h.OverflowCount, mode + ": and to the histogram's counts");
                Console.WriteLine("{0}: {1} snapshot updates with deltas while {2} threads wrote", mode, updates, Writers);
                // A reset from this thread while nobody writes: the next delta is what came after.
                h.Reset();
                h.Record(1000, 5);
                snap.Update(deltas: true);
                Equal(5UL, snap.GetSummary().TotalCount, mode + ": the delta after a reset");
            }
        }
    }

    static void ApproxCounterFromThreads()
    {
        using (var c = new ApproxCounter())
        {
            Check(c.Threshold == 13 && c.MaxShift == 10 && !c.ExactWhenUncontended, "default policy");
            OnThreads(Writers, i => { for (int k = 0; k < 2000; k++) c.Increment(); });
            Equal(8000UL, c.Value, "exact below 2^13 from threads");
            Equal(8000UL, c.Reset(), "reset returns the count");
            Equal(0UL, c.Value, "zero after a reset");
            const int per = 250000;
            OnThreads(Writers, i => { for (int k = 0; k < per; k++) c.Increment(); });
            double expected = (double)Writers * per, got = c.Value;
            Check(Math.Abs(got - expected) <= 0.05 * expected, string.Format("approx counter: {0} for {1}", got, expected));
            Console.WriteLine("approx counter T=13: {0:N0} for {1:N0} ({2:+0.000;-0.000} %)", got, expected, (got - expected) / expected * 100);
        }
        using (var c = new ApproxCounter())
        {
            ulong taken = 0;
            int done = 0;
            var resetter = new Thread(() => { while (Volatile.Read(ref done) == 0) taken += c.Reset(); });
            resetter.Start();
            try { OnThreads(Writers, i => { for (int k = 0; k < 20000; k++) c.Add(3); }); }
            finally { Volatile.Write(ref done, 1); resetter.Join(); }
            Equal((ulong)Writers * 20000 * 3, taken + c.Value, "resets racing adds lose nothing");
        }
        using (var c = new ApproxCounter(4, 3, true))
        {
            for (int k = 0; k < 20000; k++) c.Increment();
            Check(c.Value == 20000 && c.Threshold == 4 && c.MaxShift == 3 && c.ExactWhenUncontended,
                  "exact when uncontended, on one thread");
        }
        Throws(Status.InvalidArgument, () => new ApproxCounter(63), "threshold 63");
        Throws(Status.InvalidArgument, () => new ApproxCounter(0, 63), "max shift 63");
        var disposed = new ApproxCounter();
        disposed.Dispose();
        Throws<ObjectDisposedException>(() => disposed.Increment(), "a disposed counter");
    }

    static void ModeErrors()
    {
        Throws(Status.InvalidArgument, () => HdrHistogram.Factory.WithMode((ConcurrencyMode)4).Create(), "mode 4");
        Throws(Status.InvalidArgument, () => HdrHistogram.Factory.WithMode(ConcurrencyMode.Interlocked, 13).Create(),
               "a threshold outside the approximate mode");
        Throws(Status.InvalidArgument, () => HdrHistogram.Factory.WithApproximate(63).Create(), "threshold 63");
        foreach (var mode in ConcurrentModes)
        {
            using (var h = new HdrHistogram(mode: mode))
            using (var single = new HdrHistogram())
            {
                h.Record(5, 3);
                single.Record(5, 4);
                try
                {
                    h.Subtract(single);
                    Check(false, mode + ": subtract did not throw");
                }
                catch (PicolloNotSupportedException e)
                {
                    Check(e.Status == Status.Unsupported && e.NativeMessage.Contains("single-writer"),
                          mode + ": subtract is UNSUPPORTED with the reason: " + e.NativeMessage);
                }
                Equal(3UL, h.TotalCount, mode + ": nothing subtracted");
                single.Subtract(h);
                Equal(1UL, single.TotalCount, mode + ": a single-writer histogram subtracts it");
            }
        }
        using (var h = HdrHistogram.Factory.WithThreadLocal().Create())
        {
            h.RecordMany(WriterValues(1, 20000));
            var all = Enumerable.Range(0, (int)h.Info.StorageLength).Select(i => h.GetBucket(i)).Where(b => b.Count > 0).ToList();
            Check(all.Count > 256, "more non-empty buckets than one batch");
            foreach (int batch in new[] { 1, 7, 256, 100000 })
                Check(h.BucketsWithValuesInBatches(batch).SequenceEqual(all), "buckets in batches of " + batch);
            Throws<ArgumentOutOfRangeException>(() => h.BucketsWithValuesInBatches(0), "a batch of 0");
        }
    }

    static void ThreadGroups()
    {
        Group("modes: record from threads", ModesRecordFromThreads);
        Group("modes: snapshots while writing", SnapshotsWhileWriting);
        Group("approximate counter", ApproxCounterFromThreads);
        Group("modes: errors and batches", ModeErrors);
    }
}
