// HdrHistogram.Factory: the fluent way to configure a histogram, as the announcement writes it:
//   Picollo.Metrics.HdrHistogram.Factory.WithRelativeError(0.01).WithUInt32Storage()
//       .WithMinTrackableValue(10000).WithMaxTrackableValue(30000).Create()
// Every With* only sets a field of the C config; Create hands it to picollo_histogram_new,
// which judges it (a bad value throws ArgumentException with the library's reason).

namespace Picollo.Metrics
{
    /// <summary>Builds an <see cref="HdrHistogram"/>; start from <see cref="HdrHistogram.Factory"/>.
    /// Unset fields keep the library's defaults (relative error 0.001, the whole u64 range,
    /// 64-bit counters, midpoint values, one writer, dense storage, no exact extremes).</summary>
    public sealed class HdrHistogramBuilder
    {
        HistogramConfig _config = HistogramConfig.Default;

        public HdrHistogramBuilder WithRelativeError(double relativeError) { _config.RelativeError = relativeError; return this; }
        public HdrHistogramBuilder WithMinTrackableValue(ulong min) { _config.MinTrackable = min; return this; }
        public HdrHistogramBuilder WithMaxTrackableValue(ulong max) { _config.MaxTrackable = max; return this; }
        public HdrHistogramBuilder WithRange(ulong min, ulong max) { _config.MinTrackable = min; _config.MaxTrackable = max; return this; }

        /// <summary>32-bit counters: half the footprint; a bucket saturates at 2^32 − 1
        /// (counted in <see cref="HdrHistogram.SaturatedCount"/>).</summary>
        public HdrHistogramBuilder WithUInt32Storage() { return WithCounterBits(32); }
        public HdrHistogramBuilder WithUInt64Storage() { return WithCounterBits(64); }

        /// <summary>Any counter width, judged by the library at Create (32 or 64).</summary>
        internal HdrHistogramBuilder WithCounterBits(int bits) { _config.CounterBits = (uint)bits; return this; }

        public HdrHistogramBuilder WithValueSelection(ValueSelection s) { _config.ValueSelection = (uint)s; return this; }

        /// <summary>Counters for the whole range allocated at creation (the default).</summary>
        public HdrHistogramBuilder WithDenseStorage() { return WithStorage(HistogramStorage.Dense); }

        /// <summary>Blocks of counters allocated when a value first lands in them: memory
        /// follows the data, not the range (not with <see cref="WithThreadLocal"/>).</summary>
        public HdrHistogramBuilder WithSparseStorage() { return WithStorage(HistogramStorage.Sparse); }

        internal HdrHistogramBuilder WithStorage(HistogramStorage storage) { _config.Storage = (uint)storage; return this; }

        /// <summary>Keep the exact smallest and largest value recorded in the range
        /// (<see cref="HdrHistogram.RecordedMin"/>, <see cref="HdrHistogram.RecordedMax"/>), at
        /// the cost of a load and a compare per record (the inline recorder then calls the library).</summary>
        public HdrHistogramBuilder WithExactExtremes() { return WithExactExtremes(true); }

        internal HdrHistogramBuilder WithExactExtremes(bool keep) { _config.ExactExtremes = keep ? 1u : 0u; return this; }
        /// <summary>HdrHistogram's lowest discernible value: the lowest buckets are 2^floor(log2 L) wide
        /// (values below share the first), the relative error holds above 2 · unit / relative error.</summary>
        public HdrHistogramBuilder WithLowestDiscernibleValue(ulong lowest) { _config.LowestDiscernible = lowest; return this; }

        /// <summary>The concurrency mode; <paramref name="approxThreshold"/> (T, 1..62, 0 for
        /// the default 13) only for <see cref="ConcurrencyMode.Approximate"/>.</summary>
        public HdrHistogramBuilder WithMode(ConcurrencyMode mode, uint approxThreshold = 0)
        {
            _config.Mode = (uint)mode;
            _config.ApproxThreshold = approxThreshold;
            return this;
        }
        public HdrHistogramBuilder WithSingleWriter() { return WithMode(ConcurrencyMode.SingleWriter); }
        public HdrHistogramBuilder WithInterlocked() { return WithMode(ConcurrencyMode.Interlocked); }
        public HdrHistogramBuilder WithThreadLocal() { return WithMode(ConcurrencyMode.ThreadLocal); }
        public HdrHistogramBuilder WithApproximate(uint threshold = 0) { return WithMode(ConcurrencyMode.Approximate, threshold); }

        /// <summary>The C config built so far.</summary>
        public HistogramConfig Config { get { return _config; } }

        public HdrHistogram Create() { return new HdrHistogram(_config); }
    }
}
