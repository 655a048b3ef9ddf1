// run.sh compiles this program twice: with -debug (a Debug build, the JIT optimizer off) and
// with -debug -optimize, and says which in the first argument. Bench.Run of a delegate from
// this assembly must warn that the measured code is unoptimized in the report, the JSON and an
// interleaved comparison of the first build only.
using System;
using Picollo;

static class BuildNote
{
    static int Main(string[] args)
    {
        bool debug = args.Length == 1 && args[0] == "debug";
        var options = new BenchOptions
        {
            Name = "note", Counters = new string[0], Samples = 100,
            TimeBudget = TimeSpan.FromSeconds(0.2), Warmup = TimeSpan.FromSeconds(0.02),
        };
        int x = 0, passed = 0, failed = 0;
        Action<bool, string> check = (ok, what) =>
        {
            if (ok) passed++; else { failed++; Console.WriteLine("FAIL: " + what); }
        };
        const string Warning = "- warning: the measured code is unoptimized (the assembly build_note_";
        using (BenchResult r = Bench.Run(() => { x++; }, options))
        {
            check(r.Table().Contains(Warning) == debug, "the report's warning: " + r.Table());
            check(r.ToJson().Contains("\"unoptimized\":null") != debug, "the JSON's unoptimized: " + r.ToJson());
        }
        using (BenchComparison c = Bench.Compare(() => { x++; }, () => { x += 2; }, options))
            check(c.Text.Contains("is unoptimized code (the assembly build_note_") == debug, "the comparison's warning: " + c.Text);
        Console.WriteLine("build note (" + (debug ? "-debug" : "-debug -optimize") + "): warned " + (debug ? "as expected" : "never"));
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
