// FloatHistogram.Factory: the fluent configuration of a float histogram, as HdrHistogram.Factory
// is for the integer one:
//   FloatHistogram.Factory.WithRelativeError(0.01).WithMagnitudes(1e-9, 1e3).Create()
// Every With* only sets a field of the C config; Create hands it to picollo_float_histogram_new,
// which judges it (a bad value throws ArgumentException with the library's reason).

namespace Picollo.Metrics
{
    /// <summary>Builds a <see cref="FloatHistogram"/>; start from <see cref="FloatHistogram.Factory"/>.
    /// Unset fields keep the library's defaults (relative error 0.001, every finite magnitude,
    /// 64-bit counters, sparse storage, one writer, midpoint values).</summary>
    public sealed class FloatHistogramBuilder
    {
        FloatHistogramConfig _config = FloatHistogramConfig.Default;

        public FloatHistogramBuilder WithRelativeError(double relativeError) { _config.RelativeError = relativeError; return this; }

        /// <summary>The smallest magnitude kept in buckets (&gt; 0); smaller nonzero ones count as underflow.</summary>
        public FloatHistogramBuilder WithMinMagnitude(double min) { _config.MinMagnitude = min; return this; }

        /// <summary>The largest magnitude kept in buckets (finite); larger ones count as overflow.</summary>
        public FloatHistogramBuilder WithMaxMagnitude(double max) { _config.MaxMagnitude = max; return this; }

        public FloatHistogramBuilder WithMagnitudes(double min, double max) { _config.MinMagnitude = min; _config.MaxMagnitude = max; return this; }

        /// <summary>32-bit counters: half the footprint; a bucket saturates at 2^32 − 1.</summary>
        public FloatHistogramBuilder WithUInt32Counters() { return WithCounterBits(32); }
        public FloatHistogramBuilder WithUInt64Counters() { return WithCounterBits(64); }

        /// <summary>Any counter width, judged by the library at Create (32 or 64).</summary>
        internal FloatHistogramBuilder WithCounterBits(int bits) { _config.CounterBits = (uint)bits; return this; }

        /// <summary>Counters for the whole range allocated at creation.</summary>
        public FloatHistogramBuilder WithDenseStorage() { return WithStorage(FloatStorage.Dense); }

        /// <summary>A block per octave, allocated when a value first lands in it (the default).</summary>
        public FloatHistogramBuilder WithSparseStorage() { return WithStorage(FloatStorage.Sparse); }

        internal FloatHistogramBuilder WithStorage(FloatStorage storage) { _config.Storage = (uint)storage; return this; }

        public FloatHistogramBuilder WithMode(FloatConcurrencyMode mode) { _config.Mode = (uint)mode; return this; }
        public FloatHistogramBuilder WithSingleWriter() { return WithMode(FloatConcurrencyMode.SingleWriter); }
        public FloatHistogramBuilder WithInterlocked() { return WithMode(FloatConcurrencyMode.Interlocked); }
        public FloatHistogramBuilder WithValueSelection(ValueSelection s) { _config.ValueSelection = (uint)s; return this; }

        /// <summary>The C config built so far.</summary>
        public FloatHistogramConfig Config { get { return _config; } }

        public FloatHistogram Create() { return new FloatHistogram(_config); }
    }
}
