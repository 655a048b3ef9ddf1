// FloatHistogramSummary: the standard summary of a FloatHistogram (picollo_float_summary) and
// its texts: the Markdown table, the diff of two summaries (Δ%, Min, Max and Cohen's d) and
// the one-line form. A class around the blittable struct, as HdrHistogramSummary is, so
// GetSummary(reuseInstance) refills it in place.

using System;

namespace Picollo.Metrics
{
    /// <summary>The standard summary of a <see cref="FloatHistogram"/>: percentiles at the
    /// ranks of <see cref="HdrHistogramSummary.StandardRanks"/>, the counts beside the buckets
    /// (zero, NaN, ±∞, underflow, overflow, saturated), the exact sum and extremes, mean and
    /// standard deviation. A new one is empty (zero counts, NaN moments and extremes).</summary>
    public sealed class FloatHistogramSummary : ISummaryOf<FloatSummaryData>
    {
        /// <summary>The raw struct, filled by the library.</summary>
        public FloatSummaryData Data;

        public FloatHistogramSummary()
        {
            Data.Mean = Data.Stdev = Data.Min = Data.Max = double.NaN;
        }

        /// <summary>When the summary was last filled (UTC); default(DateTime) for a new one.</summary>
        public DateTime TimestampUtc { get; private set; }

        void ISummaryOf<FloatSummaryData>.Fill(FloatSummaryData data)
        {
            Data = data;
            TimestampUtc = DateTime.UtcNow;
        }

        public FloatPercentile this[int i] { get { return Data[i]; } }

        public FloatPercentile[] Percentiles { get { return Summaries.Percentiles(FloatSummaryData.Count, i => Data[i]); } }

        public FloatPercentile P0 { get { return Data.P00; } }
        public FloatPercentile P1 { get { return Data.P01; } }
        public FloatPercentile P5 { get { return Data.P02; } }
        public FloatPercentile P10 { get { return Data.P03; } }
        public FloatPercentile P25 { get { return Data.P04; } }
        public FloatPercentile P50 { get { return Data.P05; } }
        public FloatPercentile P75 { get { return Data.P06; } }
        public FloatPercentile P90 { get { return Data.P07; } }
        public FloatPercentile P92_5 { get { return Data.P08; } }
        public FloatPercentile P95 { get { return Data.P09; } }
        public FloatPercentile P97_5 { get { return Data.P10; } }
        public FloatPercentile P99 { get { return Data.P11; } }
        public FloatPercentile P999 { get { return Data.P12; } }
        public FloatPercentile P9999 { get { return Data.P13; } }
        public FloatPercentile P99999 { get { return Data.P14; } }
        public FloatPercentile P100 { get { return Data.P15; } }

        public ulong TotalCount { get { return Data.Total; } }
        public ulong ZeroCount { get { return Data.Zero; } }
        public ulong NaNCount { get { return Data.NaN; } }
        public ulong PositiveInfinityCount { get { return Data.PositiveInfinity; } }
        public ulong NegativeInfinityCount { get { return Data.NegativeInfinity; } }
        public ulong UnderflowCount { get { return Data.Underflow; } }
        public ulong OverflowCount { get { return Data.Overflow; } }
        public ulong SaturatedCount { get { return Data.Saturated; } }
        public double Sum { get { return Data.Sum; } }
        /// <summary>The smallest value in buckets; null when empty or unknown (a delta snapshot).</summary>
        public double? Min { get { return FloatHistogram.OrNull(Data.Min); } }
        /// <summary>The largest value in buckets; null when empty or unknown (a delta snapshot).</summary>
        public double? Max { get { return FloatHistogram.OrNull(Data.Max); } }
        public double Mean { get { return Data.Mean; } }
        public double StdDev { get { return Data.Stdev; } }
        /// <summary>The layout's relative error.</summary>
        public double Precision { get { return Data.Precision; } }
        public double MinMagnitude { get { return Data.MinMagnitude; } }
        public double MaxMagnitude { get { return Data.MaxMagnitude; } }

        /// <summary>The Markdown table (with a <c>##### title</c> heading unless title is null/empty).</summary>
        public string Table(string title = null) { return SummaryText.Render<FloatSummaryData>(Data, title, Native.picollo_float_summary_table); }

        /// <summary>The diff table of other against this: percentiles side by side with Δ%,
        /// Mean, StDev, Min, Max, Precision, Total and the D-value (Cohen's d).</summary>
        public string Diff(FloatHistogramSummary other, string title = null, string nameA = null, string nameB = null)
        {
            return SummaryText.Diff<FloatSummaryData>(Data, Operands.Other(other).Data, title, nameA, nameB, Native.picollo_float_summary_diff);
        }

        /// <summary>One line: <c>name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…</c>
        /// (just <c>Total=0</c> when empty), then the counts beside the buckets that are not zero.</summary>
        public string Line(string name = null) { return SummaryText.Render<FloatSummaryData>(Data, name, Native.picollo_float_summary_line); }

        /// <summary>The summary as a JSON object: minMagnitude, maxMagnitude, the counts, the
        /// exact sum and extremes, mean, stDev (null when unknown), precision, percentiles.</summary>
        public string Json() { return SummaryText.Json<FloatSummaryData>(Data, Native.picollo_float_summary_json); }

        public override string ToString() { return Line(); }

        public string ToString(string name) { return Line(name); }
    }
}
