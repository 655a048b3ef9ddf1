// Tests of the export formats by name through the C# binding (PicolloFormats.cs): the CSV of
// buckets against the binding's own bucket iteration (HdrHistogram and FloatHistogram),
// text and binary formats against their own methods, and names or options the library
// refuses. Part of the Tests program.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Picollo;
using Picollo.Metrics;

static partial class Tests
{
    /// <summary>The rows of a CSV of buckets after its header.</summary>
    static string[][] CsvRows(string csv)
    {
        var lines = csv.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
        Equal("lower,upper,count", lines[0], "the CSV header");
        return lines.Skip(1).Select(l => l.Split(',')).ToArray();
    }

    static void FormatsByName()
    {
        var names = Formats.Names;
        Check(names.Contains("csv") && names.Contains("hdr-v2"), "csv and hdr-v2 are listed");
        Equal(names.Length, names.Distinct().Count(), "each name once");
        Check(Formats.IsBinary("hdr-v2") && !Formats.IsBinary("csv"), "hdr-v2 is binary, csv text");
        var rng = new Random(63);
        using (var h = new HdrHistogram(0.01))
        using (var f = new FloatHistogram(0.01))
        {
            for (int i = 0; i < 3000; i++)
            {
                h.Record((ulong)Math.Pow(10, 1 + 6 * rng.NextDouble()));
                f.Record((rng.NextDouble() - 0.3) * Math.Pow(10, 8 * rng.NextDouble() - 4));
            }
            var rows = CsvRows(h.ToFormat("csv"));
            var buckets = h.BucketsWithValues.ToArray();
            Equal(buckets.Length, rows.Length, "a row per non-empty bucket");
            for (int i = 0; i < rows.Length; i++)
                Equal(buckets[i].Lower + "," + buckets[i].Highest + "," + buckets[i].Count, string.Join(",", rows[i]), "row " + i);
            var floatRows = CsvRows(f.ToFormat("csv"));
            var floatBuckets = f.BucketsWithValues.ToArray();
            Equal(floatBuckets.Length, floatRows.Length, "a row per non-empty float bucket");
            for (int i = 0; i < floatRows.Length; i++)
            {
                var b = floatBuckets[i];
                Equal(b.Lowest, double.Parse(floatRows[i][0], CultureInfo.InvariantCulture), "lowest " + i);
                Equal(b.Highest, double.Parse(floatRows[i][1], CultureInfo.InvariantCulture), "highest " + i);
                Equal(b.Count, ulong.Parse(floatRows[i][2], CultureInfo.InvariantCulture), "count " + i);
            }
            var title = new[] { new KeyValuePair<string, string>("title", "latency") };
            Equal(h.Table("latency"), h.ToFormat("table", title), "table by name");
            var hgrm = new[] { new KeyValuePair<string, string>("ticks_per_half_distance", "3") };
            Equal(h.ToHgrm(3), h.ToFormat("hgrm", hgrm), "hgrm by name");
            Check(h.ToFormatBytes("hdr-v2").SequenceEqual(HistogramEncoding.EncodeBinary(h)), "hdr-v2 by name is the compressed blob");
            var lat = new[] { new KeyValuePair<string, string>("name", "lat") };
            Check(h.ToFormatBytes("prometheus-native", lat).SequenceEqual(h.ToPrometheusNative("lat")), "prometheus-native by name");
            Check(f.ToFormatBytes("prometheus-native", lat).SequenceEqual(f.ToPrometheusNative("lat")), "float prometheus-native by name");
            Throws(Status.InvalidArgument, () => h.ToFormat("openmetrics"), "openmetrics needs a name");
            Throws<ArgumentException>(() => h.ToFormat("hdr-v2"), "a binary format is not text");
            Throws(Status.InvalidArgument, () => h.ToFormat("zip"), "an unknown format");
            Throws(Status.InvalidArgument, () => h.ToFormat("csv", title), "an option csv does not take");
            Throws(Status.InvalidArgument, () => f.ToFormat("hgrm"), "hgrm has no float form");
        }
    }

    static void FormatGroups()
    {
        Group("formats by name", FormatsByName);
    }
}
