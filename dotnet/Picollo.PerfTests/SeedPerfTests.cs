// Runs the announcement's perf snippets (SeedPerfSnippets.cs) and holds what they print
// against the outputs the announcement shows (document 000 in ../shared/seeds, or
// $PICOLLO_SEED_ANNOUNCEMENT, as SeedAnnouncement.cs reads it): the PMU
// line, then per counter a table of the announcement's shape (every number as '#') with its
// exact total. Both snippets need a hardware PMU: without one, the check is that they say so
// ("CPU PMU: unavailable", zero counters) and that the session refuses with Unsupported or
// PermissionDenied naming the counter (or, on a PMU too small for the pinned group, that Read
// fails with the OS's error); the tables are then skipped, loudly, with the reason. The table
// checks are first tried on the announcement's own output, which they must take.
// The announcement's file, listings and line shapes come from SeedAnnouncement.cs, the same
// file as Picollo.Tests compiles (Picollo.PerfTests.csproj names it in a Compile item).

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Picollo;
using Picollo.Perf;
using static SeedAnnouncement;   // SeedAnnouncement.cs (shared with Picollo.Tests): SeedDocument, SeedFile, SeedListing, Shape, Trimmed

static partial class PerfTests
{
    /// <summary>Run a snippet, echo what it printed, and return its lines and the refusal (if
    /// the session could not be made).</summary>
    static List<string> RunSeed(string name, Action snippet, out IPicolloError refused)
    {
        var saved = Console.Out;
        var text = new StringWriter();
        IPicolloError caught = null;
        Console.SetOut(text);
        try { snippet(); }
        catch (Exception e) when (e is IPicolloError) { caught = (IPicolloError)e; }
        finally { Console.SetOut(saved); }
        refused = caught;
        Console.WriteLine("----- seed " + name + " -----");
        Console.Write(text.ToString());
        var lines = text.ToString().Split('\n').ToList();
        while (lines.Count > 0 && lines[lines.Count - 1] == "") lines.RemoveAt(lines.Count - 1);
        return lines;
    }

    /// <summary>The PMU lines the snippets start with; true when the snippet went on to count.</summary>
    static bool PmuLinesAndRefusal(string name, List<string> output, IPicolloError refused)
    {
        uint fixedCounters, programmable;
        bool pmu = PerfEventCounterSession.TryGetNumberOfCounters(out fixedCounters, out programmable);
        string counts = string.Format("CPU PMU: fixedCounters={0}, programmableCounters={1}", fixedCounters, programmable);
        if (pmu)
            Check(output.Count > 0 && output[0] == counts, name + ": the PMU line: " + string.Join("|", output.Take(1)));
        else
            Check(output.Count >= 2 && output[0] == "CPU PMU: unavailable" && output[1] == counts && counts.EndsWith("=0, programmableCounters=0"),
                  name + ": without a PMU, says so: " + string.Join(" / ", output.Take(2)));
        if (refused == null) return true;
        // Create refuses a counter this machine cannot count (naming it); on a PMU too small
        // for the pinned group, Read fails with the OS's error.
        Check(((refused.Status == Status.Unsupported || refused.Status == Status.PermissionDenied)
               && Regex.IsMatch(refused.NativeMessage, "^Hardware(Cache)?:"))
              || (pmu && refused.Status == Status.OsError && refused.NativeMessage.Length > 0),
              name + ": refused for the hardware, with the reason: " + refused.Status + " " + refused.NativeMessage);
        Console.WriteLine("SKIP seed " + name + " tables (" + refused.Status + "): " + refused.NativeMessage);
        return false;
    }

    /// <summary>What is wrong with PerfSessionGettingStarted's tables (the lines after the PMU
    /// line), held against the announcement's listing; empty when nothing is.</summary>
    static List<string> GettingStartedTableProblems(List<string> expected, List<string> tables)
    {
        var problems = new List<string>();
        // The announcement's first table (Hardware:Instructions) is the shape of every table.
        var table = expected.Skip(1).TakeWhile(l => l != "").ToList();
        tables = tables.Where(l => l != "").ToList();
        var headings = tables.Where(l => l.StartsWith("##### ")).ToList();
        if (!headings.OrderBy(h => h).SequenceEqual(expected.Where(l => l.StartsWith("##### ")).OrderBy(h => h)))
            problems.Add("not a table per counter of the announcement: " + string.Join(", ", headings));
        if (tables.Count != headings.Count * table.Count
            || !tables.Select((l, i) => Shape(l) == Shape(table[i % table.Count]) || (i % table.Count == 0 && l.StartsWith("##### "))).All(x => x))
            problems.Add("a table not of the announcement's shape");
        var totals = tables.Where(l => l.StartsWith("| Precision:")).Select(Trimmed).ToList();
        if (totals.Count != headings.Count || !totals.All(t => t == "|Precision:|0.0977%|Total:|8,999|"))
            problems.Add("not 8,999 deltas after the reset in every table: " + string.Join(" ", totals));
        return problems;
    }

    /// <summary>What is wrong with PerfSessionSorted's diff tables; empty when nothing is.</summary>
    static List<string> SortedTableProblems(List<string> expected, List<string> tables)
    {
        var problems = new List<string>();
        if (tables.Count != expected.Count || !tables.Select(Shape).SequenceEqual(expected.Select(Shape)))
            problems.Add("not the announcement's two diff tables, in shape");
        var totals = tables.Where(l => l.StartsWith("| Total:")).Select(Trimmed).ToList();
        if (totals.Count != 2 || !totals.All(t => t == "|Total:|1,000|1,000|0.0%|"))
            problems.Add("not 1,000 rounds each: " + string.Join(" ", totals));
        return problems;
    }

    static void SeedPerfSessionGettingStarted()
    {
        var expected = SeedListing("CPU PMU: fixedCounters=4, programmableCounters=8");
        // The checks below must take the announcement's own output, and refuse a changed one.
        Check(GettingStartedTableProblems(expected, expected.Skip(1).ToList()).Count == 0, "the table checks take the announcement's output");
        var changed = expected.Skip(1).Select(l => l.Replace("8,999 |", "9,000 |")).ToList();
        Check(GettingStartedTableProblems(expected, changed).Count == 1, "the table checks refuse other totals");
        Check(GettingStartedTableProblems(expected, expected.Skip(1).Where(l => !l.StartsWith("| 92.5")).ToList()).Count == 1,
              "the table checks refuse a missing row");

        IPicolloError refused;
        var output = RunSeed("PerfSessionGettingStarted", SeedPerf.PerfSessionGettingStarted, out refused);
        Check(Shape(output.Last(l => l.StartsWith("CPU PMU: f"))) == Shape(expected[0]), "PerfSessionGettingStarted: the PMU line's form");
        if (!PmuLinesAndRefusal("PerfSessionGettingStarted", output, refused)) return;
        var problems = GettingStartedTableProblems(expected, output.Skip(1).ToList());
        Check(problems.Count == 0, "PerfSessionGettingStarted: " + string.Join("; ", problems));
    }

    static void SeedPerfSessionSorted()
    {
        var expected = SeedListing("##### CpuCycles");
        Check(SortedTableProblems(expected, expected).Count == 0, "the diff table checks take the announcement's output");
        Check(SortedTableProblems(expected, expected.Take(expected.Count - 1).ToList()).Count == 1, "the diff table checks refuse a missing row");

        IPicolloError refused;
        var output = RunSeed("PerfSessionSorted", SeedPerf.PerfSessionSorted, out refused);
        if (!PmuLinesAndRefusal("PerfSessionSorted", output, refused)) return;
        // The announcement's listing starts at the tables (it leaves the two PMU lines out).
        var problems = SortedTableProblems(expected, output.SkipWhile(l => !l.StartsWith("#####")).ToList());
        Check(problems.Count == 0, "PerfSessionSorted: " + string.Join("; ", problems));
    }

    static void SeedGroups()
    {
        if (SeedFile() == null)
        {
            Console.WriteLine("SKIPPED: the comparisons with the Picollo .NET announcement (" + SeedDocument
                              + ") is not in ../shared/seeds nor at $PICOLLO_SEED_ANNOUNCEMENT");
            Group("seed perf snippets, run only", () =>
            {
                IPicolloError refused;
                RunSeed("PerfSessionGettingStarted", SeedPerf.PerfSessionGettingStarted, out refused);
                RunSeed("PerfSessionSorted", SeedPerf.PerfSessionSorted, out refused);
            });
            return;
        }
        Group("seed: PerfSessionGettingStarted", SeedPerfSessionGettingStarted);
        Group("seed: PerfSessionSorted", SeedPerfSessionSorted);
    }
}
