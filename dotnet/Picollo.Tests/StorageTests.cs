// Tests of HdrHistogram's sparse storage (HistogramStorage, picollo_histogram_config.storage):
// sparse against dense histograms of the same data in every mode that takes it and both
// counter widths (buckets, outside counts, summaries, queries, steps, merges, snapshots),
// racing writers making blocks, the footprint following the data, the recorder's call path,
// and the configurations the library refuses. Part of the Tests program (Tests.cs holds Main
// and the check helpers).

using System;
using System.Linq;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    static readonly ConcurrencyMode[] SparseModes =
        { ConcurrencyMode.SingleWriter, ConcurrencyMode.Interlocked, ConcurrencyMode.Approximate };

    static void SparseAgainstDense()
    {
        var values = QueryValues(111, 30000).Concat(new ulong[] { 0, 3, 2000000, ulong.MaxValue }).ToArray();
        foreach (int bits in new[] { 32, 64 })
            foreach (var mode in SparseModes)
            {
                string what = string.Format("{0}-bit {1}", bits, mode);
                using (var sparse = new HdrHistogram(0.01, 10, 1000000, bits, mode: mode, storage: HistogramStorage.Sparse))
                using (var dense = new HdrHistogram(0.01, 10, 1000000, bits, mode: mode))
                {
                    sparse.RecordMany(values);
                    dense.RecordMany(values);
                    sparse.Record(777, 5);
                    dense.Record(777, 5);
                    sparse.RecordCorrected(5000, 1000);
                    dense.RecordCorrected(5000, 1000);
                    Check(sparse.TotalCount == dense.TotalCount && sparse.UnderflowCount == dense.UnderflowCount
                          && sparse.OverflowCount == dense.OverflowCount && sparse.SaturatedCount == 0, what + ": sparse counts as dense");
                    Check(sparse.Buckets.SequenceEqual(dense.Buckets), what + ": every bucket, empty ones included, as dense");
                    Check(sparse.GetSummary().Percentiles.SequenceEqual(dense.GetSummary().Percentiles), what + ": the same percentiles");
                    Check(sparse.RankOf(500) == dense.RankOf(500) && sparse.CountBetween(100, 100000) == dense.CountBetween(100, 100000),
                          what + ": the same value queries");
                    Check(sparse.LinearSteps(1000).SequenceEqual(dense.LinearSteps(1000)), what + ": the same steps");
                    using (var a = sparse.Downsample(0.05))
                    using (var b = dense.Downsample(0.05))
                        Check(a.BucketsWithValues.SequenceEqual(b.BucketsWithValues), what + ": the same downsample");
                    using (var snap = sparse.GetSnapshot())
                    {
                        sparse.Record(20000, 3);
                        snap.Update(deltas: true);
                        Equal(3ul, snap.GetSummary().TotalCount, what + ": a sparse histogram's delta snapshot");
                    }
                }
            }
    }

    static void SparseMergesAndFootprint()
    {
        var values = QueryValues(112, 20000);
        using (var sparse = HdrHistogram.Factory.WithRelativeError(0.001).WithSparseStorage().Create())
        using (var dense = HdrHistogram.Factory.WithRelativeError(0.001).WithDenseStorage().Create())
        {
            Equal((uint)HistogramStorage.Sparse, HdrHistogram.Factory.WithSparseStorage().Config.Storage, "the builder's storage");
            ulong empty = sparse.Info.FootprintBytes;
            Check(empty < dense.Info.FootprintBytes, string.Format("an empty sparse histogram holds less than a dense one: {0} vs {1}", empty, dense.Info.FootprintBytes));
            sparse.Record(100);
            Check(sparse.Info.FootprintBytes > empty, "a first record makes a block");
            sparse.Reset();
            sparse.RecordMany(values);
            dense.RecordMany(values);
            Check(sparse.Info.FootprintBytes < dense.Info.FootprintBytes, "values below 10^9 touch a part of the u64 range");
            Equal(dense.Info.StorageLength, sparse.Info.StorageLength, "the same storage length (the layout of the range)");
            Equal(HistogramStorage.Sparse, sparse.Storage, "the sparse histogram says so");
            Equal(HistogramStorage.Dense, dense.Storage, "the dense histogram says so");
            using (var intoSparse = new HdrHistogram(0.001, storage: HistogramStorage.Sparse))
            using (var intoDense = new HdrHistogram(0.001))
            {
                intoSparse.Add(dense);
                intoDense.Add(sparse);
                Check(intoSparse.BucketsWithValues.SequenceEqual(dense.BucketsWithValues) && intoDense.BucketsWithValues.SequenceEqual(dense.BucketsWithValues),
                      "add between sparse and dense, both ways");
                intoSparse.Subtract(dense);
                Equal(0ul, intoSparse.TotalCount, "subtract from a sparse histogram");
            }
        }
    }

    static void SparseThreadsAndRecorder()
    {
        const int perThread = 100000;
        using (var shared = new HdrHistogram(0.001, 0, 1100000, mode: ConcurrencyMode.Interlocked, storage: HistogramStorage.Sparse))
        using (var reference = new HdrHistogram(0.001, 0, 1100000))
        {
            OnThreads(Writers, t => { foreach (var v in WriterValues(t, perThread)) shared.Record(v); });
            for (int t = 0; t < Writers; t++) reference.RecordMany(WriterValues(t, perThread));
            Equal((ulong)Writers * perThread, shared.TotalCount + shared.OverflowCount, "sparse interlocked: no record lost while threads race to make blocks");
            Check(shared.BucketsWithValues.SequenceEqual(reference.BucketsWithValues), "sparse interlocked: the buckets of one thread's recording");
        }
        using (var h = new HdrHistogram(0.01, storage: HistogramStorage.Sparse))
        using (var reference = new HdrHistogram(0.01))
        {
            RecorderData r;
            Equal(Status.Ok, Native.picollo_histogram_get_recorder(h.Handle, Native.RecorderVersion, out r), "a sparse histogram's recorder");
            Check(r.Kind == (uint)RecorderKind.Call && r.Cells == IntPtr.Zero, "sparse: the recorder calls for every record (kind " + r.Kind + ")");
            var call = (Native.RecordFn)System.Runtime.InteropServices.Marshal.GetDelegateForFunctionPointer(r.Record, typeof(Native.RecordFn));
            var values = QueryValues(113, 2000);
            foreach (var v in values) RecordInline(ref r, call, v);
            reference.RecordMany(values);
            Check(h.BucketsWithValues.SequenceEqual(reference.BucketsWithValues), "sparse: records through the recorder land as records");
        }
    }

    static void SparseBadInput()
    {
        Throws(Status.InvalidArgument, () => new HdrHistogram(0.01, mode: ConcurrencyMode.ThreadLocal, storage: HistogramStorage.Sparse),
               "sparse storage in the thread-local mode");
        Throws(Status.InvalidArgument, () => new HdrHistogram(0.01, storage: (HistogramStorage)2), "unknown storage");
        Throws(Status.InvalidArgument, () => HdrHistogram.Factory.WithThreadLocal().WithSparseStorage().Create(), "builder: thread-local and sparse");
    }

    static void StorageGroups()
    {
        Group("storage: sparse against dense", SparseAgainstDense);
        Group("storage: merges and footprint", SparseMergesAndFootprint);
        Group("storage: threads and recorder", SparseThreadsAndRecorder);
        Group("storage: bad input", SparseBadInput);
    }
}
