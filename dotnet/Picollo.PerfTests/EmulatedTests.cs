// Tests of exact metrics (ABI 1.16), the Emulated:* counters of Picollo's QEMU plugin.
// Natively: time is never exact (IsExact false, Constant refused, Percentile the histogram's
// value), Emulated:Instructions is refused as unsupported with a message naming `picollo
// emulate`, Pmu.Emulation() says so, and Emulated:Cycles is no counter at all. Under the
// plugin (`picollo emulate -- mono Picollo.PerfTests.exe --emulated` runs these groups only;
// natively they print SKIPPED): fixed work has one instruction count per operation, an A/A
// comparison finds no difference, one more iteration of a loop the same positive difference
// in every comparison; every ExactVerdict is checked against the library's own `exact:` line.
// Mono 6.8 under qemu-x86_64 7.2 with the plugin: the JIT aborts (x86-codegen.h:410, `offset ==
// (gint32)offset`) once QEMU places a code chunk it asked for with MAP_32BIT far above the
// others (QEMU ignores MAP_32BIT), and `mono --interpreter` runs but counts differently from
// call to call; so these checks pass only where mono's JIT runs there.

using System;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Picollo;
using Picollo.Perf;

static partial class PerfTests
{
    const string Instructions = "Emulated:Instructions";

    /// <summary>Whether this process runs under Picollo's QEMU plugin.</summary>
    static bool Emulated { get { return Pmu.Emulation().StartsWith("emulated by Picollo's QEMU plugin", StringComparison.Ordinal); } }

    /// <summary>Where CountTo leaves its sum, so that the loop stays.</summary>
    public static int Sink;

    /// <summary>Fixed work: n iterations of an addition.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    static void CountTo(int n)
    {
        int s = 0;
        for (int i = 0; i < n; i++) s += i;
        Sink = s;
    }

    [MethodImpl(MethodImplOptions.NoInlining)] static void Ten() { CountTo(10); }
    [MethodImpl(MethodImplOptions.NoInlining)] static void Eleven() { CountTo(11); }

    static void EmulatedTimeIsNotExact()
    {
        string[] counters = Emulated ? new string[0] : new[] { "Software:TaskClock" };  // no perf_event under QEMU
        using (BenchResult r = Bench.Run(Ten, Quick("ten", counters)))
        {
            foreach (string m in r.Metrics)
            {
                Check(!r.IsExact(m), m + " is not exact");
                Throws(Status.InvalidArgument, "is not exact", () => r.Constant(m), m + "'s constant");
                foreach (double rank in new[] { 0.0, 50, 90, 99, 100 })
                    Check(r.Percentile(m, rank) == r.Histogram(m).GetPercentile(rank).Value / 1000.0,
                          string.Format("{0} P{1} is the histogram's value in its unit", m, rank));
            }
            foreach (double rank in new[] { -0.001, 100.0001, double.NaN, double.PositiveInfinity })
                Throws(Status.InvalidArgument, "rank ", () => r.Percentile("time", rank), "rank " + rank);
            try { r.Constant("Software:PageFaults"); Check(false, "an unknown metric's constant"); }
            catch (ArgumentException e) { Check(e.Message.Contains("'Software:PageFaults'"), "an unknown metric: " + e.Message); }
        }
    }

    static void EmulatedNoExactDiffs()
    {
        using (BenchResult a = Bench.Run(Ten, Quick("a")))
        using (BenchResult b = Bench.Run(Ten, Quick("b")))
        {
            BenchComparison c = Bench.Compare(a, b);
            Check(c.Exact.Count == 0 && !c.Text.Contains("\nexact: "), "no exact metric, no exact diff: " + c.Exact.Count);
            BenchComparison apart = Bench.JudgeApart(b, new[] { 1000.0, 1010.0 });  // (a median round may be 0 in QEMU)
            Check(apart.Exact.Count == 0, "judged on runs apart: no exact diff");
        }
    }

    static void EmulatedNatively()
    {
        string line = Pmu.Emulation();
        Console.WriteLine("emulation: " + line);
        Check(line.StartsWith("not running under Picollo's QEMU plugin", StringComparison.Ordinal), "natively not emulated: " + line);
        string reason;
        Check(!Pmu.IsSupported(Instructions, out reason) && reason.Contains("picollo emulate"), "not supported natively: " + reason);
        Throws(Status.Unsupported, "picollo emulate", () => Bench.Run(Ten, Quick("emulated", Instructions)).Dispose(),
               "Emulated:Instructions natively");
        Throws(Status.Unsupported, "picollo emulate", () => Bench.Compare(Ten, Eleven, Quick("emulated", Instructions)).Dispose(),
               "Emulated:Instructions natively, interleaved");
    }

    static void EmulatedUnknownCounter()
    {
        string reason;
        Throws(Status.InvalidArgument, "Emulated:Cycles", () => Bench.Run(Ten, Quick("cycles", "Emulated:Cycles")).Dispose(),
               "Emulated:Cycles in a run");
        Throws(Status.InvalidArgument, "Emulated:Cycles", () => Pmu.IsSupported("Emulated:Cycles", out reason), "Emulated:Cycles");
        // A near miss names the event meant; case does not matter.
        Throws(Status.InvalidArgument, "did you mean `Emulated:Instructions`?",
               () => Pmu.IsSupported("Emulated:Instruction", out reason), "Emulated:Instruction");
        Check(Pmu.IsSupported("software:taskclock", out reason), "software:taskclock, case aside: " + reason);
    }

    /// <summary>The verdict and B − A of the library's <c>exact:</c> line for a metric (NaN
    /// where it varies).</summary>
    static Tuple<ExactVerdict, double> ExactLine(BenchComparison c, string metric)
    {
        string[] lines = c.Text.Split('\n').Where(l => l.StartsWith("exact: ") && l.Contains(" " + metric + " ")).ToArray();
        Check(lines.Length == 1, "one exact: line for " + metric + ":\n" + c.Text);
        string m = Regex.Escape(metric);
        Match w = Regex.Match(lines.FirstOrDefault() ?? "", "^exact: (?:(no difference) in " + m + " between .*|.* takes [\\d,.]+ (more|fewer) "
                                                     + m + " per .*|" + m + " (varies) from .*)$");
        Check(w.Success, "the exact: line reads as expected: " + lines.FirstOrDefault());
        string word = w.Groups.Cast<Group>().Skip(1).Select(g => g.Value).FirstOrDefault(v => v != "") ?? "";
        var verdict = word == "more" ? ExactVerdict.More : word == "fewer" ? ExactVerdict.Fewer
                    : word == "no difference" ? ExactVerdict.NoDifference : ExactVerdict.Varies;
        Match d = Regex.Match(lines.FirstOrDefault() ?? "", @"\(B − A = ([+-]?[\d,.]+), \[");
        return Tuple.Create(verdict, d.Success ? double.Parse(d.Groups[1].Value.Replace(",", ""), System.Globalization.CultureInfo.InvariantCulture) : double.NaN);
    }

    static void EmulatedFixedWork()
    {
        using (BenchResult r = Bench.Run(Ten, Quick("ten", Instructions)))
        {
            Check(r.IsExact(Instructions) && !r.IsExact("time"), "the emulated count is exact, time is not");
            double? count = r.Constant(Instructions);
            Console.WriteLine(string.Format("emulated: Ten() runs {0} instructions per operation", count));
            Check(count > 0, "fixed work has one count per operation:\n" + r.Table());
            Check(new[] { 0.0, 50, 100 }.All(rank => r.Percentile(Instructions, rank) == count), "P0 = P50 = P100 = the constant");
        }
    }

    static void EmulatedAA()
    {
        using (BenchComparison c = Bench.Compare(Ten, Ten, Quick("aa", Instructions)))
        {
            ExactDiff d = c.Exact[Instructions];
            Check(c.Exact.Count == 1 && d.Verdict == ExactVerdict.NoDifference && d.Difference == 0 && d.A == d.B,
                  "A/A: no difference: " + d + "\n" + c.Text);
            Check(ExactLine(c, Instructions).Equals(Tuple.Create(ExactVerdict.NoDifference, 0.0)), "the exact: line says no difference");
        }
    }

    static void EmulatedOneMoreIteration()
    {
        var seen = new System.Collections.Generic.List<double?>();
        for (int i = 0; i < 5; i++)
        {
            using (BenchComparison c = Bench.Compare(Ten, Eleven, Quick("more", Instructions), "ten", "eleven"))
            {
                ExactDiff d = c.Exact[Instructions];
                Check(d.Verdict == ExactVerdict.More && d.Difference > 0 && d.Difference == Math.Floor(d.Difference.Value) && d.Difference == d.B - d.A,
                      "one more iteration: more, by a whole count: " + d + "\n" + c.Text);
                Check(ExactLine(c, Instructions).Equals(Tuple.Create(ExactVerdict.More, d.Difference ?? double.NaN)),
                      "the exact: line says the same more: " + c.Text);
                if (i == 0) Console.WriteLine("emulated: Eleven() against Ten(): " + d);
                seen.Add(d.Difference);
            }
        }
        Check(seen.Distinct().Count() == 1, "the same difference in 5 comparisons: " + string.Join(", ", seen));
        using (BenchComparison c = Bench.Compare(Eleven, Ten, Quick("fewer", Instructions)))
        {
            ExactDiff d = c.Exact[Instructions];
            Check(d.Verdict == ExactVerdict.Fewer && d.Difference < 0, "less work: fewer: " + d);
            Check(ExactLine(c, Instructions).Equals(Tuple.Create(ExactVerdict.Fewer, d.Difference ?? double.NaN)), "the exact: line says fewer");
        }
    }

    static void EmulatedVaries()
    {
        var random = new Random(1);  // no period a batch could average out
        using (BenchComparison c = Bench.Compare(Ten, () => CountTo(random.Next(20)), Quick("varies", Instructions)))
        {
            ExactDiff d = c.Exact[Instructions];
            Check(d.Verdict == ExactVerdict.Varies && d.Difference == null && d.B == null, "varying work varies: " + d);
            Check(ExactLine(c, Instructions).Item1 == ExactVerdict.Varies, "the exact: line says varies");
        }
    }

    /// <summary>The groups of this file: the native checks, then the emulated ones where the
    /// plugin counts (<c>--emulated</c> runs only these: the rest of the program needs
    /// perf_event, which QEMU's user mode does not offer).</summary>
    static void EmulatedGroups()
    {
        Group("exact: time is not exact", EmulatedTimeIsNotExact);
        Group("exact: no exact metric, no exact diffs", EmulatedNoExactDiffs);
        Group("exact: Emulated:Cycles is no counter", EmulatedUnknownCounter);
        if (!Emulated)
        {
            Group("exact: natively", EmulatedNatively);
            Console.WriteLine("exact: SKIPPED the emulated checks: " + Pmu.Emulation()
                              + " (run: picollo emulate -- mono Picollo.PerfTests.exe --emulated)");
            return;
        }
        Group("exact: fixed work", EmulatedFixedWork);
        Group("exact: A/A", EmulatedAA);
        Group("exact: one more iteration", EmulatedOneMoreIteration);
        Group("exact: varying work", EmulatedVaries);
    }
}
