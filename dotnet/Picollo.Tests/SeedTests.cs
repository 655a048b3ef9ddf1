// Runs the announcement's histogram snippets (SeedSnippets.cs) and holds what they print
// against the outputs the announcement shows, read from the same text: the Picollo .NET
// announcement, document 000 (../shared/seeds beside the checkout, or $PICOLLO_SEED_ANNOUNCEMENT), where
// c-tests/csharp/seed_snippets.py reads it too; it is not copied into the repository.
// Without it the snippets still run and print, and the comparisons are skipped, loudly. Values that come from random data, the clock or the machine are held to
// their shape only: every number becomes '#', so a table must have the announcement's rows,
// labels and columns, and a percentile line its form. Where the output does not depend on
// those, it must be the announcement's text exactly. Each snippet's output is echoed into the
// log, framed by "----- seed <name> -----".
//
// Three differences are known and checked as such (not hidden): System.Random is the same on
// mono, but a negative double cast to ulong wraps on mono where the announcement's .NET gave
// 0, so about 2 % of the getting-started values land below 20,000 (the tail, P99 included, is
// unchanged); the core counts the rank 99.9 of 10^6 values as 999,000 (exactly), where the
// announcement's table shows 999,001; and the core's table shows the trackable range whenever
// it is not the whole u64 range, where the announcement's scopes table omits it.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using static SeedAnnouncement;   // SeedAnnouncement.cs: SeedDocument, SeedFile, SeedListing, Shape, Trimmed

static partial class Tests
{
    /// <summary>What a snippet prints (echoed to the log).</summary>
    static List<string> RunSeed(string name, Action snippet)
    {
        string output = Captured(snippet);
        Console.WriteLine("----- seed " + name + " -----");
        Console.Write(output);
        return output.Split('\n').Select(l => l.TrimEnd('\r')).ToList();
    }

    /// <summary>The same number of lines, each of the expected shape.</summary>
    static void SameShape(List<string> expected, List<string> actual, string what)
    {
        var e = expected.Select(Shape).ToList();
        var a = actual.Select(Shape).ToList();
        int first = Enumerable.Range(0, Math.Min(e.Count, a.Count)).FirstOrDefault(i => e[i] != a[i]);
        bool same = e.Count == a.Count && e.SequenceEqual(a);
        Check(same, string.Format("{0}: the announcement's shape ({1} lines) vs the output's ({2}); first difference at line {3}:\n  {4}\n  {5}",
                                  what, e.Count, a.Count, first + 1, first < expected.Count ? expected[first] : "(none)",
                                  first < actual.Count ? actual[first] : "(none)"));
    }

    /// <summary>Lines of a table row by their first cell ("Precision:", "99"…), as printed.</summary>
    static List<string> Rows(List<string> lines, string label)
    {
        return lines.Where(l => l.StartsWith("|") && FirstCell(l) == label).Select(Trimmed).ToList();
    }

    static List<string> WithoutTrailingBlank(List<string> lines)
    {
        var l = lines.ToList();
        while (l.Count > 0 && l[l.Count - 1] == "") l.RemoveAt(l.Count - 1);
        return l;
    }

    /// <summary>Whether "HH:mm:ss.fff" is within 10 s of <paramref name="t"/>'s time of day.</summary>
    static bool NearInTheDay(string hhmmss, DateTime t)
    {
        TimeSpan at;
        if (!TimeSpan.TryParseExact(hhmmss, @"hh\:mm\:ss\.fff", System.Globalization.CultureInfo.InvariantCulture, out at)) return false;
        double d = Math.Abs((at - t.TimeOfDay).TotalSeconds);
        return Math.Min(d, 86400 - d) < 10;
    }

    /// <summary>How this runtime casts a negative double to ulong: mono wraps (-300.7 gives
    /// 2^64 − 300), the announcement's .NET gave 0. The snippets' `20_000 + (ulong)(…)` with a
    /// negative deviation then records 19,700 or 20,000.</summary>
    enum NegativeCast { Wraps, Zero, Other }

    static double negative = -300.7;

    static NegativeCast HowNegativeCasts()
    {
        ulong u = unchecked((ulong)negative);
        return u == 0 ? NegativeCast.Zero : u == ulong.MaxValue - 299 ? NegativeCast.Wraps : NegativeCast.Other;
    }

    static void SeedGettingStarted()
    {
        var expected = SeedListing("P99: P99=24,960 [83 / 609]: [24,832, 25,088) 14,190");
        var output = WithoutTrailingBlank(RunSeed("GettingStarted", Seed.GettingStarted));
        SameShape(expected, output, "GettingStarted");
        Equal(expected[0], output[0], "GettingStarted: the P99 line (the tail is the announcement's)");
        foreach (var label in new[] { "Precision:", "Range Min:", "Overflow", "Total:" })
            Check(Rows(expected, label).SequenceEqual(Rows(output, label)),
                  "GettingStarted: the " + label + " rows as the announcement's: " + string.Join(" / ", Rows(output, label)));
        foreach (var label in new[] { "25", "50", "75", "90", "99", "100" })
            Check(Rows(expected, label).SequenceEqual(Rows(output, label)), "GettingStarted: row " + label + " as the announcement's");
        var cast = HowNegativeCasts();
        if (cast == NegativeCast.Wraps)
            Check(Rows(output, "0")[0] == "|0|19,584|±128|1|", "GettingStarted: wrapped casts put P0 below 20,000: " + Rows(output, "0")[0]);
        else if (cast == NegativeCast.Zero)
            Check(Rows(output, "0").SequenceEqual(Rows(expected, "0")), "GettingStarted: casts to 0 give the announcement's P0");

        // "The code below produces exactly the same result as above."
        var snapshot = WithoutTrailingBlank(RunSeed("GettingStartedSnapshot", Seed.GettingStartedSnapshot));
        Check(snapshot.SequenceEqual(output), "GettingStartedSnapshot prints exactly what GettingStarted prints");
    }

    static void SeedMonitoring()
    {
        var expected = SeedListing("14:06:02.381 | GettingStartedMonitoring: Total=10,195,966, Overflow=0, Mean=21,443.7, P0=20,096, P25=20,352, P50=21,120, P90=23,424, P95=23,936, P99=24,448, P999=24,960, P100=25,216");
        DateTime start = DateTime.UtcNow;
        var output = WithoutTrailingBlank(RunSeed("GettingStartedMonitoring(2)", () => Seed.GettingStartedMonitoring(2)));
        int table = output.IndexOf("##### Aggregate");
        Check(table >= 1, "GettingStartedMonitoring(2): one-line summaries, then the aggregate table");
        var lines = output.Take(Math.Max(table, 0)).ToList();
        Check(lines.Count >= 1 && lines.All(l => Shape(l) == Shape(expected[0])),
              "GettingStartedMonitoring: each line has the announcement's form:\n" + string.Join("\n", lines));
        Check(lines.All(l => NearInTheDay(l.Substring(0, Math.Min(12, l.Length)), start)),
              "GettingStartedMonitoring: each line starts with its summary's TimestampUtc");
        // The drift depends on the time of day: the Overflow row is there or not.
        var expectedTable = expected.Skip(expected.IndexOf("##### Aggregate")).ToList();
        var actualTable = output.Skip(Math.Max(table, 0)).ToList();
        if (!actualTable.Any(l => l.StartsWith("| Overflow")))
            expectedTable = expectedTable.Where(l => !l.StartsWith("| Overflow")).ToList();
        SameShape(expectedTable, actualTable, "GettingStartedMonitoring: the aggregate table");
    }

    static void SeedPercentiles()
    {
        var expected = SeedListing("P9.1914=20,096 [64 / 590]: [19,968, 20,224) 183,827");
        var output = WithoutTrailingBlank(RunSeed("GettingStartedPercentiles", Seed.GettingStartedPercentiles));
        Check(output.All(l => Shape(l) == Shape(expected[0])), "GettingStartedPercentiles: every line a bucket percentile");
        // Above the buckets a wrapped cast reaches (below 20,224), every line is the announcement's.
        var tail = expected.Skip(1).ToList();
        Check(output.Count >= tail.Count && output.Skip(output.Count - tail.Count).SequenceEqual(tail),
              "GettingStartedPercentiles: the announcement's lines from P23.6734 on, exactly");
        var cast = HowNegativeCasts();
        if (cast == NegativeCast.Wraps)
            Equal(expected.Count + 2, output.Count, "GettingStartedPercentiles: two buckets more below 20,000 with wrapped casts");
        else if (cast == NegativeCast.Zero)
            Check(output.SequenceEqual(expected), "GettingStartedPercentiles: casts to 0 give the announcement's lines, all");
    }

    static void SeedCustomPercentiles()
    {
        var expected = SeedListing("P90=23,936 [79 / 605]: [23,808, 24,064) 28,840");
        var output = WithoutTrailingBlank(RunSeed("GettingStartedCustomPercentiles", Seed.GettingStartedCustomPercentiles));
        // The announcement cut its listing after "95: 24,448"; the snippet goes on to 98.
        Check(output.Take(expected.Count).SequenceEqual(expected), "GettingStartedCustomPercentiles: the announcement's lines, exactly");
        Check(output.Skip(expected.Count).SequenceEqual(new[] { "96: 24,704", "97: 24,704", "98: 24,960" }),
              "GettingStartedCustomPercentiles: the scalar values agree with the batch for 96..98");
    }

    static void SeedScopes()
    {
        var expected = SeedListing("##### Histogram summary");
        // The announcement annotated four rows with the scope they came from: not output.
        expected = expected.Select(l => Regex.Replace(l, @"\| (Millis|Micros|Ticks|Nanos)$", "|")).ToList();
        var output = WithoutTrailingBlank(RunSeed("GettingStartedScopes", Seed.GettingStartedScopes));
        var range = output.Where(l => l.StartsWith("| Range Min:")).ToList();
        var rest = output.Where(l => !l.StartsWith("| Range Min:")).ToList();
        Check(range.Count == 1 && Rows(output, "Range Min:")[0] == "|Range Min:|0|Max:|2,000,000,000|",
              "GettingStartedScopes: the core's table adds the range row the announcement's omits: " + string.Join("", range));
        SameShape(expected, rest, "GettingStartedScopes");
        foreach (var label in new[] { "0", "25", "50", "75", "90", "100" })
            Check(Rows(output, label).Count == 1 && Rows(output, label)[0].EndsWith("|" + Rows(expected, label)[0].Split('|')[4] + "|"),
                  "GettingStartedScopes: row " + label + " counts as the announcement's");
        Check(Rows(output, "Precision:").SequenceEqual(Rows(expected, "Precision:")), "GettingStartedScopes: precision and total");
        // One second in each unit: milliseconds, microseconds, Stopwatch ticks, nanoseconds.
        var values = new[] { "0", "50", "75", "90" }.Select(r => ulong.Parse(Rows(output, r)[0].Split('|')[2].Replace(",", ""))).ToList();
        ulong ticks = (ulong)System.Diagnostics.Stopwatch.Frequency;
        Check(values.Any(v => v >= 990 && v < 1100) && values.Any(v => v >= 990000 && v < 1100000)
              && values.Any(v => v >= ticks / 1000 * 990 && v < ticks / 1000 * 1100) && values.Any(v => v >= 990000000 && v < 1100000000),
              "GettingStartedScopes: about a second in millis, micros, ticks and nanos: " + string.Join(", ", values));
    }

    static void SeedClockResolution()
    {
        var expected = SeedListing("Stopwatch.Frequency: 10,000,000");
        var output = WithoutTrailingBlank(RunSeed("GettingStartedClockResolution", Seed.GettingStartedClockResolution));
        SameShape(expected, output, "GettingStartedClockResolution");
        Equal("Stopwatch.Frequency: " + System.Diagnostics.Stopwatch.Frequency.ToString("N0"), output[0], "the frequency line");
    }

    static void SeedGroups()
    {
        if (SeedFile() == null)
        {
            // Run and print the snippets all the same (run.sh checks that each ran).
            Console.WriteLine("SKIPPED: the comparisons with the Picollo .NET announcement (" + SeedDocument
                              + ") is not in ../shared/seeds nor at $PICOLLO_SEED_ANNOUNCEMENT");
            Group("announcement snippets, run only", () =>
            {
                RunSeed("GettingStarted", Seed.GettingStarted);
                RunSeed("GettingStartedSnapshot", Seed.GettingStartedSnapshot);
                RunSeed("GettingStartedMonitoring(2)", () => Seed.GettingStartedMonitoring(2));
                RunSeed("GettingStartedPercentiles", Seed.GettingStartedPercentiles);
                RunSeed("GettingStartedCustomPercentiles", Seed.GettingStartedCustomPercentiles);
                RunSeed("GettingStartedScopes", Seed.GettingStartedScopes);
                RunSeed("GettingStartedClockResolution", Seed.GettingStartedClockResolution);
            });
            return;
        }
        Group("seed: GettingStarted and GettingStartedSnapshot", SeedGettingStarted);
        Group("seed: GettingStartedMonitoring", SeedMonitoring);
        Group("seed: GettingStartedPercentiles", SeedPercentiles);
        Group("seed: GettingStartedCustomPercentiles", SeedCustomPercentiles);
        Group("seed: GettingStartedScopes", SeedScopes);
        Group("seed: GettingStartedClockResolution", SeedClockResolution);
    }
}
