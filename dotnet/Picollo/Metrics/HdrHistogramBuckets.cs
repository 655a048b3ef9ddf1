// The bucket enumerables of HdrHistogram, named as in the announcement:
//   Buckets                      every bucket of the storage, empty ones included;
//   BucketsWithValues            the non-empty buckets;
//   BucketPercentiles            every bucket as a percentile;
//   BucketPercentilesWithValues  the non-empty buckets as percentiles.
// Each enumeration first copies the counts once (picollo_histogram_add into a private
// histogram, which reads the source as one consistent copy) and walks the copy, so what it
// yields agrees with itself even while writers record. The library lists the non-empty
// buckets (picollo_histogram_next_buckets); the empty ones between them come from the
// layout (BucketLayout.cs). A bucket's percentile is computed as the core's
// bucket-percentile iterator computes it (core/src/iter.rs, view.rs make_percentile).

using System;
using System.Collections.Generic;

namespace Picollo.Metrics
{
    public sealed partial class HdrHistogram
    {
        /// <summary>Every bucket of the storage, lowest first, empty ones included (one per
        /// storage index, <see cref="HistogramInfo.StorageLength"/> in all).</summary>
        public IEnumerable<Bucket> Buckets { get { return ReadBuckets(true); } }

        /// <summary>The buckets with a count, lowest first.</summary>
        public IEnumerable<Bucket> BucketsWithValues { get { return ReadBuckets(false); } }

        /// <summary>Every bucket as a percentile whose rank is the middle of the bucket's share
        /// of the counts, <c>(counts below + count / 2) / total × 100</c>, valued per
        /// <see cref="ValueSelection"/>. Empty buckets included (an empty histogram's all have rank 0).</summary>
        public IEnumerable<Percentile> BucketPercentiles { get { return ReadBucketPercentiles(true); } }

        /// <summary><see cref="BucketPercentiles"/> of the buckets with a count:
        /// <c>P9.1914=20,096 [64 / 590]: [19,968, 20,224) 183,827</c>, …</summary>
        public IEnumerable<Percentile> BucketPercentilesWithValues { get { return ReadBucketPercentiles(false); } }

        /// <summary>The non-empty buckets straight from the live histogram, <paramref name="batch"/>
        /// per native call, without the private copy: each batch is consistent in itself, but
        /// with writers running, different batches may come from different moments.</summary>
        public IEnumerable<Bucket> BucketsWithValuesInBatches(int batch)
        {
            if (batch < 1) throw new ArgumentOutOfRangeException("batch");
            return BatchIterator(batch);
        }

        /// <summary>The bucket at a storage index, empty or not (each call copies the counts:
        /// to walk buckets, use <see cref="Buckets"/>).</summary>
        public Bucket GetBucket(long storageIndex)
        {
            if (storageIndex < 0) throw new ArgumentOutOfRangeException("storageIndex");
            Bucket b;
            PicolloException.Check(Native.picollo_histogram_bucket(_handle, new UIntPtr((ulong)storageIndex), out b));
            return b;
        }

        IEnumerable<Bucket> BatchIterator(int batch)
        {
            return Batches.Read((ref UIntPtr cursor, Bucket[] output, out UIntPtr written) =>
                Native.picollo_histogram_next_buckets(_handle, ref cursor, output, new UIntPtr((uint)output.Length), out written),
                UIntPtr.Zero, batch, batch);
        }

        /// <summary>A single-writer 64-bit histogram of this one's layout, range and value
        /// selection holding this one's counts, read as one consistent copy.</summary>
        HdrHistogram CopyForReading()
        {
            HistogramInfo info = Info;
            var config = HistogramConfig.Default;
            config.RelativeError = info.RelativeError;   // 0.5 / block size: the same layout
            config.MinTrackable = info.MinTrackable;
            config.MaxTrackable = info.MaxTrackable;
            config.ValueSelection = info.ValueSelection;
            config.LowestDiscernible = Unit;
            return Copies.Filled(new HdrHistogram(config), copy => copy.Add(this));
        }

        IEnumerable<Bucket> ReadBuckets(bool includeEmpty)
        {
            using (var copy = CopyForReading())
                foreach (var b in Walk(copy, includeEmpty)) yield return b;
        }

        IEnumerable<Percentile> ReadBucketPercentiles(bool includeEmpty)
        {
            using (var copy = CopyForReading())
            {
                HistogramInfo info = copy.Info;
                var selection = (ValueSelection)info.ValueSelection;
                ulong before = 0;
                foreach (var b in Walk(copy, includeEmpty))
                {
                    yield return BucketPercentile(b, before, info.Total, selection);
                    before = SaturatingAdd(before, b.Count);
                }
            }
        }

        /// <summary>The buckets of a histogram nobody else records into: the library's
        /// non-empty ones, with the empty ones in between from the layout.</summary>
        static IEnumerable<Bucket> Walk(HdrHistogram copy, bool includeEmpty)
        {
            HistogramInfo info = copy.Info;
            var layout = new BucketLayout(info.BlockSize, copy.Unit);
            ulong first = copy.GetBucket(0).LogicalIndex;   // the logical index of storage index 0
            ulong next = 0;                                  // the next storage index to yield
            foreach (var b in copy.BucketsWithValuesInBatches(1024))
            {
                if (includeEmpty)
                    for (; next < b.StorageIndex; next++) yield return layout.At(first + next, next);
                yield return b;
                next = b.StorageIndex + 1;
            }
            if (includeEmpty)
                for (; next < info.StorageLength; next++) yield return layout.At(first + next, next);
        }

        /// <summary>The percentile of one bucket with <paramref name="before"/> counts below
        /// it: rank at the middle of its counts, the value its selection reports there.</summary>
        internal static Percentile BucketPercentile(Bucket b, ulong before, ulong total, ValueSelection selection)
        {
            double rank = total == 0 ? 0.0 : ((double)before + (double)b.Count / 2.0) / (double)total * 100.0;
            // The count the rank points at: the middle one of the bucket (at least its first).
            ulong target = SaturatingAdd(before, Math.Max(b.Count / 2 + (b.Count & 1), 1UL));
            ulong value;
            switch (selection)
            {
                case ValueSelection.Lower: value = b.Lower; break;
                case ValueSelection.Upper: value = b.Highest; break;
                case ValueSelection.Interpolated: value = Interpolated(b, target - before); break;
                default: value = b.Value; break;
            }
            return new Percentile
            {
                Rank = rank,
                Value = value,
                PlusMinus = Math.Max(value - b.Lower, b.Highest - value),
                StorageIndex = b.StorageIndex,
                LogicalIndex = b.LogicalIndex,
                Lower = b.Lower,
                Upper = b.Highest == ulong.MaxValue ? ulong.MaxValue : b.Highest + 1,
                Highest = b.Highest,
                Count = b.Count,
                CumulativeCount = SaturatingAdd(before, b.Count),
                RankCount = target,
            };
        }

        /// <summary>The interpolated value of the k-th of a bucket's values: the centre of the
        /// k-th of count equal slices, <c>lower + (2k − 1)·width / (2·count)</c>, rounded down.</summary>
        static ulong Interpolated(Bucket b, ulong k)
        {
            ulong count = Math.Max(b.Count, 1), width = b.Highest - b.Lower + 1;
            k = Math.Min(Math.Max(k, 1), count);
            if (width == 1) return b.Lower;
            // width = 2^s·2: the offset is (2k − 1)·2^s / count, with 2k − 1 < 2·count. Long
            // division, one bit of 2^s at a time, keeps every step below 2^64.
            int s = 0;
            while ((2UL << s) < width) s++;
            ulong q, r;
            if (k - 1 >= count - k) { q = 1; r = (k - 1) - (count - k); }   // 2k − 1 ≥ count
            else { q = 0; r = 2 * k - 1; }
            for (int i = 0; i < s; i++)
            {
                bool carry = (r >> 63) != 0;
                r <<= 1;
                q <<= 1;
                if (carry || r >= count) { r -= count; q |= 1; }
            }
            return b.Lower + Math.Min(q, width - 1);
        }

        static ulong SaturatingAdd(ulong a, ulong b) { return a > ulong.MaxValue - b ? ulong.MaxValue : a + b; }
    }
}
