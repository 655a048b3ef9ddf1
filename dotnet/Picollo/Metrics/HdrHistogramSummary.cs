// HdrHistogramSummary: the standard summary (picollo_summary) and its texts: the Markdown
// table (PrettyPrint), the diff of two summaries with Δ% and Cohen's d (PrettyPrintDiff), the
// one-line form (ToString(name)) and JSON. A class around the blittable struct, so
// GetSummary(reuseInstance) can refill it in place.

using System;

namespace Picollo.Metrics
{
    /// <summary>The standard summary: percentiles at ranks 0, 1, 5, 10, 25, 50, 75, 90, 92.5,
    /// 95, 97.5, 99, 99.9, 99.99, 99.999, 100, then totals and moments, and when it was taken.
    /// Filled by <see cref="HdrHistogram.GetSummary"/> or <see cref="HdrHistogramSnapshot.GetSummary"/>;
    /// a new one is empty (zero counts, NaN moments).</summary>
    public sealed class HdrHistogramSummary : ISummaryOf<SummaryData>
    {
        public static readonly double[] StandardRanks =
            { 0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99, 99.9, 99.99, 99.999, 100 };

        /// <summary>The title <see cref="PrettyPrint"/> gives a table when none is passed.</summary>
        public const string DefaultTitle = "Histogram summary";

        /// <summary>The raw struct, filled by the library.</summary>
        public SummaryData Data;

        public HdrHistogramSummary()
        {
            Data.Mean = double.NaN;
            Data.StdDev = double.NaN;
        }

        /// <summary>When the summary was last filled (UTC); default(DateTime) for a new one.
        /// The C summary carries no time: this is the clock read right after the fill.</summary>
        public DateTime TimestampUtc { get; private set; }

        void ISummaryOf<SummaryData>.Fill(SummaryData data)
        {
            Data = data;
            TimestampUtc = DateTime.UtcNow;
        }

        public Percentile this[int i] { get { return Data[i]; } }

        public Percentile[] Percentiles { get { return Summaries.Percentiles(SummaryData.Count, i => Data[i]); } }

        public Percentile P0 { get { return Data.P00; } }
        public Percentile P1 { get { return Data.P01; } }
        public Percentile P5 { get { return Data.P02; } }
        public Percentile P10 { get { return Data.P03; } }
        public Percentile P25 { get { return Data.P04; } }
        public Percentile P50 { get { return Data.P05; } }
        public Percentile P75 { get { return Data.P06; } }
        public Percentile P90 { get { return Data.P07; } }
        public Percentile P92_5 { get { return Data.P08; } }
        public Percentile P95 { get { return Data.P09; } }
        public Percentile P97_5 { get { return Data.P10; } }
        public Percentile P99 { get { return Data.P11; } }
        public Percentile P999 { get { return Data.P12; } }
        public Percentile P9999 { get { return Data.P13; } }
        public Percentile P99999 { get { return Data.P14; } }
        public Percentile P100 { get { return Data.P15; } }

        public ulong TotalCount { get { return Data.Total; } }
        public ulong UnderflowCount { get { return Data.Underflow; } }
        public ulong OverflowCount { get { return Data.Overflow; } }
        public ulong SaturatedCount { get { return Data.Saturated; } }
        public double Mean { get { return Data.Mean; } }
        public double StdDev { get { return Data.StdDev; } }
        public double Precision { get { return Data.Precision; } }
        public ulong MinTrackable { get { return Data.MinTrackable; } }
        public ulong MaxTrackable { get { return Data.MaxTrackable; } }

        /// <summary>The Markdown table (with a <c>##### title</c> heading unless title is null/empty).</summary>
        public string Table(string title = null) { return SummaryText.Render<SummaryData>(Data, title, Native.picollo_summary_table); }

        /// <summary>The diff table of other against this: Δ%, Mean, StDev, Precision, Total, D-value.</summary>
        public string Diff(HdrHistogramSummary other, string title = null, string nameA = null, string nameB = null)
        {
            return SummaryText.Diff<SummaryData>(Data, Operands.Other(other).Data, title, nameA, nameB, Native.picollo_summary_diff);
        }

        /// <summary>One line: <c>name: Total=…, Overflow=…, Mean=…, P0=…, …, P100=…</c>.</summary>
        public string Line(string name = null) { return SummaryText.Render<SummaryData>(Data, name, Native.picollo_summary_line); }

        /// <summary>The summary as a JSON object: minTrackableValue, maxTrackableValue, the
        /// counts, mean, stDev (null when empty), precision, percentiles.</summary>
        public string Json() { return SummaryText.Json<SummaryData>(Data, Native.picollo_summary_json); }

        /// <summary>The table under <c>##### title</c> (<see cref="DefaultTitle"/> when none is
        /// given; "" for no heading), then a blank line, to the console.</summary>
        public void PrettyPrint(string title = DefaultTitle) { Console.WriteLine(Table(title)); }

        /// <summary>The <see cref="Diff"/> table, then a blank line, to the console.</summary>
        public void PrettyPrintDiff(HdrHistogramSummary other, string title = null, string nameA = null, string nameB = null)
        {
            Console.WriteLine(Diff(other, title, nameA, nameB));
        }

        public override string ToString() { return Line(); }

        /// <summary>The one-line form under a name (see <see cref="Line"/>).</summary>
        public string ToString(string name) { return Line(name); }
    }
}
