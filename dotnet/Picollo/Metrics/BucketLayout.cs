// The bucket layout, as the announcement's HdrBuckets defines it, from the logical index
// back to the bucket: what Buckets needs to show the empty buckets between the non-empty ones
// the library hands out, without one native call (one copy of the counts) per bucket.
// core/src/layout.rs is the reference; the tests compare every bucket with
// picollo_histogram_bucket.

namespace Picollo.Metrics
{
    /// <summary>Blocks of <c>BlockSize = 2^BlockScale</c> buckets: block 0 holds the values
    /// 0 .. BlockSize − 1 one per bucket; block k ≥ 1 holds [2^(k−1)·B, 2^k·B) in steps of 2^(k−1).
    /// With a unit 2^u the blocks below u are unused and block u holds 0 .. B·2^u − 1 in steps of 2^u.</summary>
    internal struct BucketLayout
    {
        public readonly int BlockScale;
        public readonly int UnitScale;

        /// <param name="blockSize">A power of two (<see cref="HistogramInfo.BlockSize"/>).</param>
        /// <param name="unit">A power of two (<see cref="HdrHistogram.Unit"/>).</param>
        public BucketLayout(ulong blockSize, ulong unit)
        {
            int scale = 0, unitScale = 0;
            while ((1UL << scale) < blockSize) scale++;
            while ((1UL << unitScale) < unit) unitScale++;
            BlockScale = scale;
            UnitScale = unitScale;
        }

        public ulong BlockSize { get { return 1UL << BlockScale; } }

        /// <summary>The bucket with this logical index (its count left 0).</summary>
        public Bucket At(ulong logicalIndex, ulong storageIndex)
        {
            int block = (int)(logicalIndex >> BlockScale);
            ulong within = logicalIndex & (BlockSize - 1);
            // Block 0 (block u with a unit 2^u) counts values one unit at a time; block k starts at 2^(k-1)·B, so its bucket
            // `within` starts at (B + within) · 2^(k-1) and is 2^(k-1) wide. The top bucket
            // ends at exactly 2^64 − 1: lower + width − 1 never wraps.
            int widthLog2 = block <= UnitScale ? UnitScale : block - 1;
            ulong lower = block <= UnitScale ? within << UnitScale : (BlockSize + within) << widthLog2;
            ulong width = 1UL << widthLog2;
            return new Bucket
            {
                StorageIndex = storageIndex,
                LogicalIndex = logicalIndex,
                Lower = lower,
                Highest = lower + (width - 1),
                Value = lower + width / 2,   // the midpoint, as picollo_bucket reports it
            };
        }
    }
}
