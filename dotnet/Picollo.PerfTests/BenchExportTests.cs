// Tests of Bench.Export and Bench.Summary (ABI 1.19): three interleaved comparisons written
// in each format for CI tools hold the three results at their own medians; the Markdown
// summary has a row per comparison with its verdict; every format the library lists is
// reached by its name (ABI 1.25), JUnit XML parses with a test case per result; bad input
// throws. The formats are read by their peers' readers and schemas in
// python-demo/tests/test_ci_formats.py.

using System;
using System.Globalization;
using System.Linq;
using System.Xml;
using Picollo;

static partial class PerfTests
{
    static readonly string[] ExportWords = { "no difference", "faster", "slower", "within noise",
                                             "not enough rounds", "not enough runs apart", "not judged",
                                             "not settled" };

    static void BenchExportFormats()
    {
        var comparisons = new[]
        {
            Bench.Compare(() => Spin(8), () => Spin(16), Paired(), "spin 8", "spin 16"),
            Bench.Compare(() => Spin(16), () => Spin(8), Paired(), "spin 16 again", "spin 8 again"),
            Bench.Compare(() => Spin(8), () => Spin(8), Paired(), "spin A", "spin B"),
        };
        try
        {
            var results = comparisons.Select(c => c.B).ToList();
            string bmf = Bench.Export(results, BenchFormat.Bencher);
            foreach (BenchResult r in results)
            {
                string median = r.Percentile("time", 50).ToString("R", CultureInfo.InvariantCulture);
                string expected = "\"" + r.Name + "\":{\"latency\":{\"value\":" + median;
                Check(bmf.Contains(expected), "BMF holds " + expected + ": " + bmf);
            }
            string github = Bench.Export(results, BenchFormat.GithubAction);
            Check(github.StartsWith("[{\"name\":\"spin 16\",\"unit\":\"ns\",\"value\":"), "github-action-benchmark: " + github);
            string gbench = Bench.Export(results, BenchFormat.GoogleBenchmark);
            Check(gbench.Contains("\"json_schema_version\":1") && gbench.Contains("\"name\":\"spin B_median\""), "Google Benchmark's JSON");
            string document = Bench.Export(results, BenchFormat.Document);
            Check(document.StartsWith("{\"schema\":\"picollo-bench\",\"version\":1,\"commands\":[{\"name\":\"spin 16\""), "the document: " + document.Substring(0, 80));
            string summary = Bench.Summary(comparisons);
            Console.WriteLine(string.Format("bench summary: {0} bytes for 3 comparisons", summary.Length));
            Check(summary.StartsWith("### Picollo: 3 comparisons: "), "the head line: " + summary.Split('\n')[0]);
            foreach (BenchComparison c in comparisons)
            {
                string row = summary.Split('\n').First(l => l.StartsWith("| " + c.B.Name + " vs " + c.A.Name + " |"));
                Check(row.EndsWith(" " + ExportWords[(int)c.Verdict] + " |"), "the row's verdict is " + c.Verdict + ": " + row);
            }
        }
        finally
        {
            foreach (BenchComparison c in comparisons) c.Dispose();
        }
    }

    static void BenchExportByName()
    {
        using (BenchComparison c = Bench.Compare(() => Spin(8), () => Spin(16), Paired(), "a<&\"'>", "b"))
        {
            string[] names = Bench.Formats;
            Check(names.Distinct().Count() == names.Length, "names unique: " + string.Join(",", names));
            foreach (string n in new[] { "report", "line", "html", "bmf", "github", "gbench", "picollo", "junit" })
                Check(names.Contains(n), "the library lists " + n);
            foreach (string n in names)
                Check(c.A.ToFormat(n).Length > 0, "format " + n + " writes one result");
            Check(c.A.ToFormat("line") == c.A.Line(), "line by name is Line()");
            var both = new[] { c.A, c.B };
            Check(Bench.Export(both, "bmf") == Bench.Export(both, BenchFormat.Bencher), "bmf by name is BENCHER");
            var xml = new XmlDocument();
            xml.LoadXml(Bench.Export(both, "junit"));
            XmlElement suite = xml.DocumentElement;
            Check(suite.Name == "testsuite" && suite.GetAttribute("tests") == "2", "junit: " + suite.OuterXml);
            XmlNodeList cases = suite.GetElementsByTagName("testcase");
            Check(cases.Count == 2 && ((XmlElement)cases[0]).GetAttribute("name") == "a<&\"'>",
                  "junit names: " + suite.OuterXml);
            Throws(Status.InvalidArgument, "unknown format \"csv\": the formats are report, ", () => c.A.ToFormat("csv"), "an unknown name");
            Throws(Status.InvalidArgument, "format \"line\" writes one result", () => Bench.Export(both, "line"), "a form of one result");
            try { Bench.Export(both, (string)null); Check(false, "a null name"); }
            catch (ArgumentNullException e) { Check(e.ParamName == "name", "a null name: " + e.ParamName); }
            try { c.A.ToFormat(null); Check(false, "a null name"); }
            catch (ArgumentNullException e) { Check(e.ParamName == "name", "a null name: " + e.ParamName); }
        }
    }

    static void BenchExportBadInput()
    {
        using (BenchComparison c = Bench.Compare(() => Spin(8), () => Spin(8), Paired(), "x", "y"))
        {
            Throws(Status.InvalidArgument, "no result (n is 0)", () => Bench.Export(new BenchResult[0], BenchFormat.Bencher), "no result");
            Throws(Status.InvalidArgument, "writes one result", () => Bench.Export(new[] { c.B }, BenchFormat.Html), "a format of one result");
            try { Bench.Export(new BenchResult[] { c.B, null }, BenchFormat.Document); Check(false, "a null result"); }
            catch (ArgumentNullException e) { Check(e.ParamName == "results", "a null result: " + e.ParamName); }
            try { Bench.Summary(new BenchComparison[0]); Check(false, "no comparison"); }
            catch (ArgumentException e) { Check(e.Message.Contains("no comparison"), "no comparison: " + e.Message); }
            using (BenchComparison apart = Bench.JudgeApart(c.B, new[] { 1.0, 2.0 }))
            {
                try { Bench.Summary(new[] { apart }); Check(false, "a judgement on runs apart"); }
                catch (InvalidOperationException e) { Check(e.Message.Contains("no result A"), "runs apart: " + e.Message); }
            }
        }
    }

    static void BenchExportGroups()
    {
        Group("bench export formats and summary", BenchExportFormats);
        Group("bench export by name", BenchExportByName);
        Group("bench export bad input", BenchExportBadInput);
    }
}
